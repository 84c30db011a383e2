// The typed API driven generically for the shared vectors: JSON arguments become the
// tool method's request record, and the response record becomes JSON again (record
// property names are the contract's field names). No per-tool code.

import java.lang.reflect.InvocationTargetException
import kotlin.reflect.KClass
import kotlin.reflect.KFunction
import kotlin.reflect.full.callSuspend
import kotlin.reflect.full.memberFunctions
import kotlin.reflect.full.memberProperties
import kotlin.reflect.full.primaryConstructor
import org.json.JSONArray
import org.json.JSONObject
import uniffi.toolpack_uniffi.ToolpackClient

fun camelCase(name: String): String = Regex("[_-]([a-z0-9])").replace(name) { it.groupValues[1].uppercase() }

/** The typed method of `tool` on the client. */
fun typedMethod(tool: String): KFunction<*> =
    ToolpackClient::class.memberFunctions.first { it.name == camelCase(tool) && it.isSuspend }

/** The request record for JSON `arguments`, or null when a typed call cannot express them. */
fun requestFor(tool: String, arguments: Any): Any? {
    if (arguments !is JSONObject) return null
    val type = typedMethod(tool).parameters[1].type.classifier as KClass<*>
    val constructor = type.primaryConstructor ?: return null
    val names = constructor.parameters.map { it.name }
    if (arguments.keySet().any { it !in names }) return null
    val values = constructor.parameters.associateWith { p ->
        val raw = arguments.opt(p.name)
        when {
            raw == null || raw == JSONObject.NULL -> if (p.type.isMarkedNullable) null else return null
            p.type.classifier == String::class -> raw as? String ?: return null
            p.type.classifier == Boolean::class -> raw as? Boolean ?: return null
            p.type.classifier == Long::class -> (raw as? Number)?.toLong() ?: return null
            p.type.classifier == Int::class -> (raw as? Number)?.toInt() ?: return null
            p.type.classifier == Double::class -> (raw as? Number)?.toDouble() ?: return null
            else -> return null
        }
    }
    return constructor.callBy(values)
}

/** Calls the typed method; unwraps reflection's wrapper around the thrown exception. */
suspend fun callTyped(client: ToolpackClient, tool: String, request: Any): Any? =
    try {
        typedMethod(tool).callSuspend(client, request)
    } catch (e: InvocationTargetException) {
        throw e.targetException
    }

/**
 * A record (or list, enum, scalar) as JSON, with the record's property names; a live
 * answer's `served` record's fields (`asOf`, `stale`) join the answer's own, as in the JSON. An enum
 * becomes `{"$enum": "NAME"}` (the testkit's typed-record reading matches it to the
 * contract's string); an enum case with one unnamed field (`v1`, a serde-untagged Rust
 * variant) becomes that field's JSON.
 */
fun toJson(value: Any?): Any = when (value) {
    null -> JSONObject.NULL
    is String, is Boolean -> value
    is UByte -> value.toLong()
    is UShort -> value.toLong()
    is UInt -> value.toLong()
    is ULong -> value.toLong()
    is Number -> value
    is Enum<*> -> JSONObject().put("\$enum", value.name)
    is List<*> -> JSONArray(value.map { toJson(it) })
    is Map<*, *> -> JSONObject().also { json -> value.forEach { (k, v) -> json.put(k.toString(), toJson(v)) } }
    else -> {
        val kClass = value::class
        val properties = kClass.memberProperties.associateBy { it.name }
        val parameters = kClass.primaryConstructor!!.parameters
        if (parameters.map { it.name } == listOf("v1")) {
            toJson(properties.getValue("v1").getter.call(value))
        } else {
            val json = JSONObject()
            for (parameter in parameters) {
                val property = toJson(properties.getValue(parameter.name!!).getter.call(value))
                if (parameter.name == "served") {
                    // A live answer's `asOf` and `stale`: one record here, flattened in the contract's JSON.
                    (property as? JSONObject)?.let { served -> served.keySet().forEach { json.put(it, served.get(it)) } }
                } else {
                    json.put(parameter.name!!, property)
                }
            }
            json
        }
    }
}
