"""The throughput reference: a server shaped like OpenAI's pizzaz Python example.

The throughput bar sets GiftGenius's `/mcp` throughput against pizzaz, which answers a tools/call with
static data and no database. This is that server on the same `mcp` SDK and uvicorn: stateless
streamable HTTP with its default SSE responses, permissive CORS, one widget tool whose result
is text, an echo of its argument as structured content and `_meta`. `python -m bench` starts it
after GiftGenius's own scenarios, so both are measured in the same run on the same machine.

Run alone: uvicorn bench.reference_server:app
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from starlette.middleware.cors import CORSMiddleware

TOOL_NAME = "pizza-map"
TOOL_META = {
    "openai/outputTemplate": "ui://widget/pizza-map.html",
    "openai/toolInvocation/invoking": "Hand-tossing a map",
    "openai/toolInvocation/invoked": "Served a fresh map",
    "openai/widgetAccessible": True,
    "openai/resultCanProduceWidget": True,
}

# WARNING, not the SDK's INFO: it would log a line per stateless request, and the reference
# should be the fastest this SDK goes.
server = MCPServer(name="pizzaz-python", log_level="WARNING")


@server.tool(
    name=TOOL_NAME,
    title="Show Pizza Map",
    description="Show Pizza Map",
    annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False),
    meta=TOOL_META,
)
def pizza_map(pizza_topping: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text="Rendered a pizza map!")],
        structured_content={"pizzaTopping": pizza_topping},
        _meta={key: TOOL_META[key] for key in TOOL_META if key.startswith("openai/toolInvocation")},
    )


app = server.streamable_http_app(stateless_http=True)
app.add_middleware(
    CORSMiddleware,
    allow_origins=["*"],
    allow_methods=["*"],
    allow_headers=["*"],
    allow_credentials=False,
)
