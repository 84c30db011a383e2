// Every shared vector through the typed API and through `call`, against the fake
// upstream: the same expectations as every other surface.

import kotlin.io.path.createTempDirectory
import kotlinx.coroutines.runBlocking
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.TestFactory
import uniffi.toolpack_uniffi.ToolpackClient
import uniffi.toolpack_uniffi.ToolpackException

class VectorsTest {
    private fun outcomeOf(e: ToolpackException): Pair<String, String> = when (e) {
        is ToolpackException.Validation -> e.code to e.json
        is ToolpackException.NotFound -> e.code to e.json
        is ToolpackException.DisambiguationRequired -> e.code to e.json
        is ToolpackException.RateLimited -> e.code to e.json
        is ToolpackException.UpstreamTimeout -> e.code to e.json
        is ToolpackException.Upstream -> e.code to e.json
        is ToolpackException.DataNotAvailable -> e.code to e.json
        is ToolpackException.AlreadyExists -> e.code to e.json
        is ToolpackException.PermissionDenied -> e.code to e.json
        is ToolpackException.Internal -> e.code to e.json
        is ToolpackException.Other -> e.code to e.json
        is ToolpackException.InvalidSetting, is ToolpackException.InvalidCall -> throw e
    }

    private fun typed(client: ToolpackClient, case: Case, request: Any): Pair<Boolean, Any> = runBlocking {
        try {
            false to toJson(callTyped(client, case.tool, request))
        } catch (e: ToolpackException) {
            val (code, json) = outcomeOf(e)
            val payload = parseJson(json) as JSONObject
            assertEquals(payload.optJSONObject("error")?.optString("code") ?: payload.optString("code"), code)
            true to payload
        }
    }

    private fun call(client: ToolpackClient, case: Case): Pair<Boolean, Any> = runBlocking {
        val result = parseJson(client.call(case.tool, case.arguments.toString())) as JSONObject
        assertEquals(setOf("content", "structuredContent", "isError"), result.keySet())
        val text = result.getJSONArray("content").getJSONObject(0).getString("text")
        assertTrue((parseJson(text) as JSONObject).similar(result.get("structuredContent")))
        result.getBoolean("isError") to result.get("structuredContent")
    }

    @TestFactory
    fun everyVector(): List<DynamicTest> = loadVectors().flatMap { vector ->
        listOf("typed", "call").map { path ->
            DynamicTest.dynamicTest("$path · ${vector.tool}: ${vector.name}") {
                val tempDir = createTempDirectory("toolpack-vector-").toFile()
                val case = vector.withPaths(tempDir.path)
                val request = if (path == "typed") requestFor(case.tool, case.arguments) else null
                if (path == "typed" && request == null) tempDir.deleteRecursively()
                assumeTrue(path == "call" || request != null, "a typed call cannot express these arguments")
                val settings = case.settings(FakeUpstream.baseUrl, tempDir.path)
                FakeUpstream.reset(case.data.optJSONArray("upstream"))
                val local = ToolpackClient(settings)
                runBlocking { case.before.forEach { local.actingFor(it.caller).call(it.tool, it.arguments) } }
                val client = local.actingFor(case.caller)
                var outcome: Pair<Boolean, Any>? = null
                repeat(case.callsBefore + 1) {
                    outcome = if (path == "typed") typed(client, case, request!!) else call(client, case)
                }
                val (isError, body) = outcome!!
                val verdict = FakeUpstream.judge("${vector.tool}: ${vector.name}", isError, body, typedRecord = path == "typed" && !isError)
                tempDir.deleteRecursively()
                assertEquals(null, verdict)
            }
        }
    }
}
