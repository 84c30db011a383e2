// Test support: the fake upstream (the Rust testkit's `fake-upstream` binary, driven
// through its admin API) and the shared vectors. Answers are judged by the testkit through
// the fake upstream (`FakeUpstream.judge`), as on every surface.

import java.io.File
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import org.json.JSONArray
import org.json.JSONObject
import org.json.JSONTokener
import uniffi.toolpack_uniffi.ToolpackClient

val TESTS_DIR: String = System.getenv("TOOLPACK_TESTS_DIR") ?: error("set TOOLPACK_TESTS_DIR")

/** The running fake upstream; stops with the JVM. */
object FakeUpstream {
    private val process: Process
    val baseUrl: String
    private val http = HttpClient.newHttpClient()

    init {
        val bin = System.getenv("TOOLPACK_FAKE_UPSTREAM_BIN") ?: error("set TOOLPACK_FAKE_UPSTREAM_BIN")
        process = ProcessBuilder(bin, "--fixtures", "$TESTS_DIR/fixtures")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start()
        baseUrl = process.inputStream.bufferedReader().readLine()
        Runtime.getRuntime().addShutdownHook(Thread { process.destroy() })
    }

    private fun send(method: String, path: String, body: Any? = null): String {
        val publisher = if (body == null) HttpRequest.BodyPublishers.noBody()
        else HttpRequest.BodyPublishers.ofString(body.toString())
        val request = HttpRequest.newBuilder(URI.create(baseUrl + path))
            .header("content-type", "application/json")
            .method(method, publisher)
            .build()
        val response = http.send(request, HttpResponse.BodyHandlers.ofString())
        check(response.statusCode() in 200..299) { "$method $path: ${response.statusCode()}" }
        return response.body()
    }

    /** Clears scenarios and the request log, then installs `scenarios`. */
    fun reset(scenarios: JSONArray?) {
        send("DELETE", "/__fake/scenarios")
        send("DELETE", "/__fake/requests")
        scenarios?.forEach { send("POST", "/__fake/scenarios", it) }
    }

    /** Every request received since the last reset. */
    fun requests(): JSONArray = JSONArray(send("GET", "/__fake/requests"))

    /**
     * The testkit's verdict on an answer to the shared vector case `caseId` (`<tool>: <name>`),
     * with the requests received since the last reset: `null` when it passes, else every way
     * it differs. `typedRecord`: the answer is a typed record written back as JSON
     * (see `toJson`), which the testkit reads leniently.
     */
    fun judge(caseId: String, isError: Boolean, body: Any, typedRecord: Boolean): String? {
        val answer = JSONObject().put("case", caseId).put("isError", isError).put("body", body)
            .put("reading", if (typedRecord) "typedRecord" else "exact")
        val verdict = JSONObject(send("POST", "/__vectors/judge", answer))
        return if (verdict.getBoolean("ok")) null else verdict.getString("problems")
    }
}

/** A call a case makes first. */
data class SetupCall(val tool: String, val arguments: String, val caller: String?)

/** The client acting for `caller` (itself for the local caller). */
fun ToolpackClient.actingFor(caller: String?): ToolpackClient = if (caller == null) this else forCaller(caller)

/** One case of a vector file. */
class Case(val tool: String, val data: JSONObject) {
    val name: String get() = data.getString("name")
    val arguments: Any get() = data.opt("arguments") ?: JSONObject.NULL
    val callsBefore: Int get() = data.optInt("callsBefore", 0)

    /** The caller the case's call runs for (`forCaller`); `null`: the local caller. */
    val caller: String? get() = data.optString("caller").ifEmpty { null }

    /** Calls to make first on the same toolpack: tool, JSON arguments and caller. */
    val before: List<SetupCall>
        get() = data.optJSONArray("before")?.map { it as JSONObject }
            ?.map { SetupCall(it.getString("tool"), it.get("arguments").toString(), it.optString("caller").ifEmpty { null }) }
            ?: emptyList()

    /** The case with `${TESTS_DIR}` and `${TEMP_DIR}` filled in in its arguments and its `before` calls' arguments. */
    fun withPaths(tempDir: String): Case {
        var text = data.toString()
        for ((name, value) in listOf("\${TESTS_DIR}" to TESTS_DIR, "\${TEMP_DIR}" to tempDir)) {
            text = text.replace(name, JSONObject.quote(value).removeSurrounding("\""))
        }
        return Case(tool, JSONObject(text))
    }

    /** The case's settings with `${TESTS_DIR}`, `${UPSTREAM}`, `${HFP}` (it as an MQTT broker) and `${TEMP_DIR}` filled in. */
    fun settings(upstream: String, tempDir: String): Map<String, String> {
        val config = data.optJSONObject("config") ?: return emptyMap()
        return config.keySet().associateWith {
            config.getString(it).replace("\${TESTS_DIR}", TESTS_DIR).replace("\${UPSTREAM}", upstream).replace("\${HFP}", upstream.replaceFirst("http://", "mqtt://"))
                .replace("\${TEMP_DIR}", tempDir)
        }
    }
}

fun loadVectors(): List<Case> =
    File(TESTS_DIR, "vectors").walkTopDown().filter { it.isFile && it.extension == "json" }.sorted()
        .flatMap { file ->
            val json = JSONObject(JSONTokener(file.readText()))
            val cases = json.getJSONArray("cases")
            (0 until cases.length()).map { Case(json.getString("tool"), cases.getJSONObject(it)) }
        }.toList()

fun parseJson(text: String): Any = JSONTokener(text).nextValue()
