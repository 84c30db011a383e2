"""A small MCP stdio client for the loko parity check: starts a server, calls tools, and
answers each result as {"isError", "body"}."""
import json, subprocess, sys, os

class Server:
    def __init__(self, cmd, cwd=None, env=None):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=env, text=True)
        self.n = 0
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "parity", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n"); self.p.stdin.flush()
    def rpc(self, method, params):
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line: raise RuntimeError("server closed")
            msg = json.loads(line)
            if msg.get("id") == self.n: return msg
    def call(self, tool, args):
        r = self.rpc("tools/call", {"name": tool, "arguments": args})
        if "error" in r: return {"rpc_error": r["error"]}
        res = r["result"]
        if res.get("structuredContent") is not None: body = res["structuredContent"]
        else:
            text = "".join(c.get("text", "") for c in res.get("content", []))
            try: body = json.loads(text)
            except Exception: body = text
        return {"isError": res.get("isError", False), "body": body}
    def close(self):
        self.p.stdin.close(); self.p.wait(timeout=10)

