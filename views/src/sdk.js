// The part of the MCP Apps SDK the views use, bundled once and shared by every view.
export {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
} from "@modelcontextprotocol/ext-apps";
