// A first look at toolpack from Kotlin: offline, no keys needed.
//
//   mvn -q -f examples/kotlin/pom.xml compile exec:java   (with dev.toolpack:toolpack installed)

package quickstart

import kotlinx.coroutines.runBlocking
import uniffi.toolpack.StationToiletLookupRequest
import uniffi.toolpack_uniffi.ToolpackClient
import uniffi.toolpack_uniffi.ToolpackException

fun main(): Unit = runBlocking {
    val toolpack = ToolpackClient.fromEnv(emptyMap())
    val answer = toolpack.stationToilets(StationToiletLookupRequest("King's Cross"))
    println("${answer.stationName} (${answer.stationUniqueId}):")
    for (toilet in answer.toilets.orEmpty()) {
        println("  ${toilet.type.padEnd(7)} ${toilet.location ?: "(no location)"}${if (toilet.accessible) " [accessible]" else ""}")
    }
    try {
        toolpack.stationToilets(StationToiletLookupRequest("Edgware Road"))
    } catch (e: ToolpackException.DisambiguationRequired) {
        println("${e.code}: ${e.errorMessage}")
    }
}
