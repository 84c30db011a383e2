// Registers toolpack's tools in an MCP host's tool list: the official TypeScript MCP
// SDK's server, serving every catalog tool over stdio. `Toolpack.tools()` gives each
// tool's name, description and JSON schemas; `call` answers with the MCP result JSON.
//
//   npm install toolpack @modelcontextprotocol/sdk
//   node examples/node/mcp-host.mjs      # then connect an MCP client over stdio
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { Toolpack } from 'toolpack'

const toolpack = Toolpack.fromEnv()
const tools = Toolpack.tools()
const server = new Server({ name: 'toolpack-node-host', version: '0.1.0' }, { capabilities: { tools: {} } })

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
    name,
    title,
    description,
    inputSchema,
    outputSchema,
    annotations,
  })),
}))

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params
  if (!tools.some((t) => t.name === name)) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${name}'`)
  return toolpack.call(name, args ?? {})
})

await server.connect(new StdioServerTransport())
