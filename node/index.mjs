// ES module entry: the same objects as the CommonJS entry.
import toolpack from './index.js'

export const { Toolpack, ToolpackError, TOOL_NAMES } = toolpack
export default toolpack
