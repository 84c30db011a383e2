// Test support: the fake upstream (the Rust testkit's `fake-upstream` binary, driven
// through its admin API), the shared vectors, and the checks every surface applies.

import java.io.File
import java.math.BigDecimal
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

    /** The case's settings with `${TESTS_DIR}`, `${UPSTREAM}` and `${TEMP_DIR}` filled in. */
    fun settings(upstream: String, tempDir: String): Map<String, String> {
        val config = data.optJSONObject("config") ?: return emptyMap()
        return config.keySet().associateWith {
            config.getString(it).replace("\${TESTS_DIR}", TESTS_DIR).replace("\${UPSTREAM}", upstream)
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

/**
 * A Kotlin enum value in a record turned into JSON: equal to the contract's string when
 * they name the same value (`on_time`, `geocode-no-results`, `VALIDATION_ERROR` all
 * compare by their SCREAMING_SNAKE form, which is the Kotlin name).
 */
data class EnumValue(val name: String) {
    fun matches(text: String): Boolean = text.uppercase().replace('-', '_') == name
    override fun toString(): String = name
}

private fun isNull(v: Any?): Boolean = v == null || v == JSONObject.NULL
private fun isEmptyContainer(v: Any?): Boolean = (v is JSONArray && v.length() == 0) || (v is JSONObject && v.length() == 0)

/**
 * Deep JSON equality (numbers by value, Kotlin enums by name). With `lenient`, a missing
 * key equals `null` or an empty list or map (typed records always carry every field),
 * and a string equals the JSON it holds (a `JsonValue` field is JSON text in Kotlin).
 */
fun jsonEquals(a: Any?, b: Any?, lenient: Boolean = false): Boolean = when {
    lenient && isNull(a) && isEmptyContainer(b) -> true
    lenient && isNull(b) && isEmptyContainer(a) -> true
    lenient && a is String && (b is JSONObject || b is JSONArray) -> jsonEquals(parseJson(a), b, true)
    lenient && b is String && (a is JSONObject || a is JSONArray) -> jsonEquals(a, parseJson(b), true)
    isNull(a) -> isNull(b)
    a is EnumValue && b is String -> a.matches(b)
    a is String && b is EnumValue -> b.matches(a)
    a is Number && b is Number -> BigDecimal(a.toString()).compareTo(BigDecimal(b.toString())) == 0
    a is JSONObject && b is JSONObject ->
        if (lenient) (a.keySet() + b.keySet()).all { jsonEquals(a.opt(it), b.opt(it), true) }
        else a.keySet() == b.keySet() && a.keySet().all { jsonEquals(a.get(it), b.get(it)) }
    a is JSONArray && b is JSONArray -> a.length() == b.length() && (0 until a.length()).all { jsonEquals(a.get(it), b.get(it), lenient) }
    else -> a == b
}

/** A deep copy of a JSON value (enum values kept as they are). */
fun deepCopy(value: Any?): Any? = when (value) {
    is JSONObject -> JSONObject().also { copy -> value.keySet().forEach { copy.put(it, deepCopy(value.get(it))) } }
    is JSONArray -> JSONArray().also { copy -> (0 until value.length()).forEach { copy.put(deepCopy(value.get(it))) } }
    else -> value
}

/** A copy of `body` without the values at `paths`. */
fun without(body: Any, paths: Collection<String>): Any {
    val out = deepCopy(body)!!
    for (path in paths) {
        val cut = path.lastIndexOf('/')
        val parent = if (cut > 0) pointer(out, path.substring(0, cut)) else out
        val key = path.substring(cut + 1).replace("~1", "/").replace("~0", "~")
        when (parent) {
            is JSONObject -> parent.remove(key)
            is JSONArray -> key.toIntOrNull()?.takeIf { it < parent.length() }?.let { parent.remove(it) }
        }
    }
    return out
}

private object Missing

fun pointer(body: Any, path: String): Any? {
    var current: Any? = body
    for (raw in path.split("/").drop(1)) {
        val part = raw.replace("~1", "/").replace("~0", "~")
        current = when (current) {
            is JSONObject -> if (current.has(part)) current.get(part) else return Missing
            is JSONArray -> part.toIntOrNull()?.takeIf { it < current.length() }?.let { current.get(it) } ?: return Missing
            else -> return Missing
        }
    }
    return current
}

/**
 * Every way an answer differs from the case's expectations (empty when it passes).
 * `lenient`: the answer is a typed record as JSON (see [jsonEquals]).
 */
fun problems(case: Case, settings: Map<String, String>, isError: Boolean, body: Any, received: JSONArray, lenient: Boolean = false): List<String> {
    val expect = case.data.getJSONObject("expect")
    val found = mutableListOf<String>()
    if (isError != expect.getBoolean("isError")) found += "isError is $isError, expected ${expect.getBoolean("isError")}"
    val patterns = expect.optJSONObject("patterns") ?: JSONObject()
    for (path in patterns.keySet()) {
        val actual = pointer(body, path)
        if (actual !is String || !Regex(patterns.getString(path)).containsMatchIn(actual)) found += "$path is $actual, expected a string matching ${patterns.getString(path)}"
    }
    if (expect.has("body") && !jsonEquals(expect.get("body"), without(body, patterns.keySet()), lenient)) found += "body differs: expected ${expect.get("body")}"
    expect.optJSONObject("pointers")?.let { pointers ->
        for (path in pointers.keySet()) {
            val actual = pointer(body, path)
            val missingButNull = lenient && actual === Missing && pointers.get(path) == JSONObject.NULL
            if (!missingButNull && (actual === Missing || !jsonEquals(actual, pointers.get(path), lenient))) found += "$path is $actual, expected ${pointers.get(path)}"
        }
    }
    expect.optJSONObject("lengths")?.let { lengths ->
        for (path in lengths.keySet()) {
            val actual = pointer(body, path)
            if (actual !is JSONArray || actual.length() != lengths.getInt(path)) found += "$path has the wrong length, expected ${lengths.getInt(path)}"
        }
    }
    expect.optJSONArray("requests")?.let { wanted ->
        if (wanted.length() != received.length()) found += "the fake upstream received ${received.length()} requests, expected ${wanted.length()}"
        for (i in 0 until minOf(wanted.length(), received.length())) {
            val want = wanted.getJSONObject(i)
            val got = received.getJSONObject(i)
            if (want.has("path") && want.getString("path") != got.getString("path")) found += "request $i: path ${got.getString("path")}"
            if (want.has("query") && !jsonEquals(want.get("query"), got.get("query"))) found += "request $i: query ${got.get("query")}"
            val headers = got.getJSONObject("headers")
            want.optJSONObject("headers")?.let { h -> h.keySet().filter { headers.optString(it, null) != h.getString(it) }.forEach { found += "request $i: header $it" } }
            want.optJSONArray("absentHeaders")?.forEach { if (headers.has(it as String)) found += "request $i: header $it must be absent" }
            val sent = runCatching { parseJson(got.getString("body")) }.getOrNull() ?: JSONObject.NULL
            want.optJSONObject("bodyPointers")?.let { b ->
                for (path in b.keySet()) {
                    val actual = pointer(sent, path)
                    if (actual === Missing || !jsonEquals(actual, b.get(path))) found += "request $i: body $path is $actual, expected ${b.get(path)}"
                }
            }
        }
    }
    val text = body.toString()
    for ((name, value) in settings) {
        if (name.endsWith("_API_KEY") && value.isNotBlank() && text.contains(value.trim())) found += "the answer contains the value of $name"
    }
    return found
}
