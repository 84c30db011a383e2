// The Kotlin layer itself: error mapping, settings, the generic API, and 100 concurrent
// coroutine calls.

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.runBlocking
import org.json.JSONArray
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import uniffi.toolpack.JourneyPlanRequest
import uniffi.toolpack.PlanJourneyCode
import uniffi.toolpack.StationToiletLookupRequest
import uniffi.toolpack.StationToiletsCode
import uniffi.toolpack_uniffi.ToolpackClient
import uniffi.toolpack_uniffi.ToolpackException

class ClientTest {
    private val bank = JourneyPlanRequest("Bank Underground Station", "Mile End Underground Station", null)

    @Test
    fun typedCallsReturnRecords() = runBlocking {
        val answer = ToolpackClient(emptyMap()).stationToilets(StationToiletLookupRequest("Kings Cross"))
        assertEquals(StationToiletsCode.OK, answer.code)
        assertEquals("HUBKGX", answer.stationUniqueId)
        assertTrue(answer.toilets!!.isNotEmpty())
    }

    @Test
    fun contractErrorsAreTypedExceptionsWithCodeAndJson() = runBlocking {
        val client = ToolpackClient(mapOf("TOOLPACK_RATE_LIMIT_STATION_TOILETS" to "1"))
        val notFound = assertThrows<ToolpackException.NotFound> {
            runBlocking { client.stationToilets(StationToiletLookupRequest("xyzzy")) }
        }
        assertEquals("STATION_NOT_FOUND", notFound.code)
        assertEquals("No station matches the given name.", notFound.errorMessage)
        assertEquals(false, JSONObject(notFound.json).getBoolean("success"))
        val limited = assertThrows<ToolpackException.RateLimited> {
            runBlocking { client.stationToilets(StationToiletLookupRequest("Victoria")) }
        }
        assertEquals("RATE_LIMIT_EXCEEDED", limited.code)
        val fresh = ToolpackClient(emptyMap())
        val ambiguous = assertThrows<ToolpackException.DisambiguationRequired> {
            runBlocking { fresh.stationToilets(StationToiletLookupRequest("Edgware Road")) }
        }
        assertEquals(2, JSONObject(ambiguous.json).getJSONArray("stationDisambiguation").length())
        assertThrows<ToolpackException.Validation> { runBlocking { fresh.stationToilets(StationToiletLookupRequest(" ")) } }
        val noData = ToolpackClient(mapOf("TFL_STATION_DATA_DETAILED_DIR" to "/nonexistent/toolpack"))
        assertThrows<ToolpackException.DataNotAvailable> { runBlocking { noData.stationToilets(StationToiletLookupRequest("Victoria")) } }
    }

    @Test
    fun upstreamFailuresMapToTheirCases() = runBlocking {
        val client = ToolpackClient(
            mapOf("TFL_API_KEY" to "k", "TFL_API_BASE_URL" to FakeUpstream.baseUrl, "TOOLPACK_UPSTREAM_TIMEOUT_MS" to "200"),
        )
        FakeUpstream.reset(JSONArray("""[{"route": "/journey", "body": "hang"}]"""))
        val timeout = assertThrows<ToolpackException.UpstreamTimeout> { runBlocking { client.planJourney(bank) } }
        assertEquals("UPSTREAM_TIMEOUT", timeout.code)
        // Retries of a 500 need more than 200 ms: the default 10 s timeout.
        val patient = ToolpackClient(mapOf("TFL_API_KEY" to "k", "TFL_API_BASE_URL" to FakeUpstream.baseUrl))
        FakeUpstream.reset(JSONArray("""[{"route": "/journey", "status": 500, "json": {"message": "boom"}}]"""))
        assertThrows<ToolpackException.Upstream> { runBlocking { patient.planJourney(bank) } }
        FakeUpstream.reset(null)
        val plan = patient.planJourney(bank)
        assertEquals(PlanJourneyCode.OK, plan.code)
        assertEquals(listOf(7L, 7L, 7L, 60L), plan.topJourneys!!.map { it.durationMinutes })
    }

    @Test
    fun badSettingsAndUnknownToolsAreNamed() = runBlocking {
        val setting = assertThrows<ToolpackException.InvalidSetting> { ToolpackClient(mapOf("TFL_APIKEY" to "x")) }
        assertTrue(setting.reason.contains("TFL_APIKEY"), setting.reason)
        val client = ToolpackClient(emptyMap())
        val unknown = assertThrows<ToolpackException.InvalidCall> { runBlocking { client.call("noSuchTool", "{}") } }
        assertTrue(unknown.reason.contains("unknown tool 'noSuchTool'"), unknown.reason)
        val result = JSONObject(client.call("stationToilets", """{"stationName": "xyzzy"}"""))
        assertEquals(true, result.getBoolean("isError"))
    }

    @Test
    fun toolsListsEveryCatalogToolAndEachHasATypedMethod() {
        assertEquals(uniffi.toolpack_uniffi.tools(), ToolpackClient(emptyMap()).tools(), "tools() without a client is the same list")
        val tools = JSONArray(ToolpackClient(emptyMap()).tools())
        assertTrue(tools.length() >= 2)
        for (i in 0 until tools.length()) {
            val tool = tools.getJSONObject(i)
            assertEquals("object", tool.getJSONObject("inputSchema").getString("type"))
            typedMethod(tool.getString("name"))
        }
    }

    @Test
    fun hundredConcurrentCoroutineCallsAreAllAnswered() = runBlocking {
        val client = ToolpackClient(mapOf("TOOLPACK_RATE_LIMIT_PER_SECOND" to "0"))
        val names = listOf("Victoria", "Kings Cross", "Abbey Wood", "Paddington")
        val answers = (0 until 100).map { i ->
            async(Dispatchers.Default) { client.stationToilets(StationToiletLookupRequest(names[i % 4])) }
        }.awaitAll()
        assertEquals(100, answers.size)
        assertTrue(answers.all { it.code == StationToiletsCode.OK })
        assertEquals(setOf("HUBVIC", "HUBKGX", "HUBABW", "HUBPAD"), answers.map { it.stationUniqueId }.toSet())
    }

    @Test
    fun forCallerKeepsEachUsersPlacesAndLimitsApart() = runBlocking {
        val dataDir = kotlin.io.path.createTempDirectory("toolpack-callers-").toFile()
        val local = ToolpackClient(mapOf("TOOLPACK_DATA_DIR" to dataDir.path, "TOOLPACK_RATE_LIMIT_STATION_TOILETS" to "1"))
        val alice = local.forCaller("alice")
        val bob = local.forCaller("bob")
        assertEquals("local", local.callerId())
        assertEquals("alice", alice.callerId())
        val home = """{"key":"home","type":"location","value":{"lat":60.17,"lon":24.94,"name":"Alice's"}}"""
        assertEquals(false, JSONObject(alice.call("save_user_variable", home)).getBoolean("isError"))
        fun variables(client: ToolpackClient) = runBlocking {
            JSONObject(client.call("get_user_variables", "{}")).getJSONObject("structuredContent").getJSONArray("variables")
        }
        assertEquals(1, variables(alice).length())
        assertEquals(0, variables(bob).length())
        assertEquals(0, variables(local).length())
        alice.stationToilets(StationToiletLookupRequest("Victoria"))
        assertThrows<ToolpackException.RateLimited> { runBlocking { alice.stationToilets(StationToiletLookupRequest("Victoria")) } }
        assertEquals(StationToiletsCode.OK, bob.stationToilets(StationToiletLookupRequest("Victoria")).code)
        assertThrows<ToolpackException.InvalidCall> { local.forCaller(" ") }
        dataDir.deleteRecursively()
        Unit
    }
}
