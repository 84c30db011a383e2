// onChoice: a client made with one asks it which station a name means, on a worker
// thread, and the call goes on with the pick; null or a value not offered give the
// disambiguation as always.

import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import uniffi.toolpack.Question
import uniffi.toolpack.StationToiletLookupRequest
import uniffi.toolpack_uniffi.OnChoice
import uniffi.toolpack_uniffi.ToolpackClient
import uniffi.toolpack_uniffi.ToolpackException

class OnChoiceTest {
    private val edgwareRoad = StationToiletLookupRequest("Edgware Road")

    /** Picks the choice at `index` (null: nobody picks), keeping the questions and threads. */
    private class Person(val pick: (Question) -> String?) : OnChoice {
        val asked = mutableListOf<Question>()
        val threads = mutableListOf<Thread>()

        override fun choose(question: Question): String? {
            asked.add(question)
            threads.add(Thread.currentThread())
            return pick(question)
        }
    }

    @Test
    fun theCallGoesOnWithThePick() = runBlocking {
        val person = Person { it.choices[1].value }
        val answer = ToolpackClient(emptyMap(), person).stationToilets(edgwareRoad)
        assertEquals("940GZZLUERC", answer.stationUniqueId)
        assertEquals(1, person.asked.size)
        val question = person.asked[0]
        assertEquals("stationName", question.field)
        assertEquals("Which station do you mean by \"Edgware Road\"?", question.message)
        assertEquals(listOf("940GZZLUERB", "940GZZLUERC"), question.choices.map { it.value })
        assertTrue(question.choices.all { it.title.startsWith("Edgware Road — ") })
        assertNotEquals(Thread.currentThread(), person.threads[0], "asked on a worker thread")
        // Another caller's client on the same toolpack asks the same callback.
        ToolpackClient(emptyMap(), person).forCaller("alice").stationToilets(edgwareRoad)
        assertEquals(2, person.asked.size)
    }

    @Test
    fun noPickGivesTheDisambiguation() {
        for (person in listOf(Person { null }, Person { "940GZZLUOXC" })) {
            assertThrows<ToolpackException.DisambiguationRequired> {
                runBlocking { ToolpackClient(emptyMap(), person).stationToilets(edgwareRoad) }
            }
            assertEquals(1, person.asked.size)
        }
    }
}
