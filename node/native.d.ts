// Types of the native addon (the napi-rs layer). Use `Toolpack` from `toolpack` instead.

/** The outcome of one call. */
export interface CallOutcome {
  /** The contract error code, when the call failed. */
  code?: string | null
  /** The error's kind (`validation`, `not_found`, …), when the call failed. */
  kind?: string | null
  /** The contract body JSON, or the MCP `CallToolResult` JSON when asked for. */
  json: string
  /** How many reports the call sent to its `onReport` callback (when it had one). */
  reports?: number | null
}

/** A configured toolpack. */
export declare class NativeToolpack {
  constructor(settings: Record<string, string>, fromEnv: boolean)
  /** The same toolpack acting for the caller `id`. */
  forCaller(id: string): NativeToolpack
  /** The same toolpack asking `onChoice` which place a name means (JSON text in, value out). */
  asking(onChoice: (question: string) => Promise<string | null>): NativeToolpack
  /** The id of the caller this handle acts for. */
  get callerId(): string
  /** The outcome when the call finished on its first poll, else a Promise of it. */
  call(
    name: string,
    arguments: string,
    asMcp: boolean,
    onReport?: ((report: string) => void) | null,
  ): CallOutcome | Promise<CallOutcome>
}

/** Every tool of the catalog, as JSON. */
export declare function toolsJson(): string

/** The MCP Apps views as MCP `resources/list` entries, as JSON. */
export declare function resourcesJson(): string

/** The MCP `resources/read` result of the view at `uri`, as JSON (`null`: no such view). */
export declare function readResourceJson(uri: string): string | null
