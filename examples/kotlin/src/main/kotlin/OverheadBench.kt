// Per-call time of `stationToilets` through the Kotlin typed API (median of many calls),
// to set beside the core's criterion median of the typed Rust call in the same run:
//
//   cargo xtask package && cargo xtask test install   # the release JAR in the local Maven repository
//   cargo bench -p toolpack --bench station_toilets -- 'station_toilets/typed/'
//   mvn -q -f examples/kotlin/pom.xml compile exec:java -Dexec.mainClass=bench.OverheadBenchKt

package bench

import kotlinx.coroutines.runBlocking
import uniffi.toolpack.StationToiletLookupRequest
import uniffi.toolpack_uniffi.ToolpackClient

fun main(): Unit = runBlocking {
    val client = ToolpackClient(mapOf("TOOLPACK_RATE_LIMIT_PER_SECOND" to "0"))
    for ((label, name) in listOf("exact_victoria" to "Victoria", "kings_cross" to "Kings Cross")) {
        val request = StationToiletLookupRequest(name)
        repeat(2_000) { client.stationToilets(request) }
        val samples = LongArray(20_000)
        for (i in samples.indices) {
            val start = System.nanoTime()
            client.stationToilets(request)
            samples[i] = System.nanoTime() - start
        }
        samples.sort()
        println("kotlin typed $label: median ${"%.2f".format(samples[samples.size / 2] / 1000.0)} µs")
    }
}
