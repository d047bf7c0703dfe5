/**
 * The emulator's description of its watch interface, in the shape the FastAPI framework serves:
 * `/v2/docs` is a Swagger UI page that loads `/v2/openapi.json`, an OpenAPI 3.1 document of the
 * endpoints the emulator really serves. The changes operation names the interval parameters the
 * emulator is configured with (changesFromParam, changesToParam), so a client that reads the
 * description sends what the emulator accepts; the validation error they may get is FastAPI's.
 */

export interface DescriptionSettings {
  changesFromParam: string;
  changesToParam: string;
  /** Path prefix the emulator is served under ("" for none), as a FastAPI root_path. */
  basePath: string;
}

/** The Swagger UI page, as FastAPI's get_swagger_ui_html writes it. */
export function docsPage(settings: DescriptionSettings): string {
  const specUrl = `${settings.basePath}/v2/openapi.json`;
  return `<!DOCTYPE html>
<html>
<head>
<link type="text/css" rel="stylesheet" href="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css">
<title>Registry watch interface - Swagger UI</title>
</head>
<body>
<div id="swagger-ui">
</div>
<script src="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>
const ui = SwaggerUIBundle({
    url: '${specUrl}',
"dom_id": "#swagger-ui",
"layout": "BaseLayout",
"deepLinking": true,
"showExtensions": true,
"showCommonExtensions": true,
oauth2RedirectUrl: window.location.origin + '${settings.basePath}/v2/docs/oauth2-redirect',
    presets: [
        SwaggerUIBundle.presets.apis,
        SwaggerUIBundle.SwaggerUIStandalonePreset
        ],
    })
</script>
</body>
</html>
`;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: unknown, description = "Successful Response") => ({
  description,
  content: { "application/json": { schema } },
});
const validationError = { "422": jsonBody(ref("HTTPValidationError"), "Validation Error") };
const listKey = {
  name: "list_key",
  in: "path",
  required: true,
  schema: { type: "string", title: "List Key" },
};
const titled = (name: string) =>
  name
    .split(/[_\W]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
const security = [{ APIKeyHeader: [] }];

/** The OpenAPI document of the watch interface, as FastAPI generates it from its routes. */
export function openApiDocument(settings: DescriptionSettings): Record<string, unknown> {
  const operation = (id: string, summary: string, extra: Record<string, unknown>) => ({
    summary,
    operationId: id,
    security,
    ...extra,
  });
  const dateParam = (name: string, description: string) => ({
    name,
    in: "query",
    required: true,
    schema: { type: "string", format: "date", title: titled(name), description },
    description,
  });
  return {
    openapi: "3.1.0",
    info: { title: "Registry watch interface", version: "2.0.0" },
    ...(settings.basePath ? { servers: [{ url: settings.basePath }] } : {}),
    paths: {
      "/v2/lists": {
        get: operation("list_lists_v2_lists_get", "List Lists", {
          responses: { "200": jsonBody(ref("WatchLists")) },
        }),
        post: operation("create_list_v2_lists_post", "Create List", {
          requestBody: { required: true, content: { "application/json": { schema: ref("ListName") } } },
          responses: { "201": jsonBody(ref("WatchList")), ...validationError },
        }),
      },
      "/v2/lists/{list_key}": {
        get: operation("get_list_v2_lists__list_key__get", "Get List", {
          parameters: [listKey],
          responses: { "200": jsonBody(ref("WatchList")), ...validationError },
        }),
        delete: operation("delete_list_v2_lists__list_key__delete", "Delete List", {
          parameters: [listKey],
          requestBody: { required: true, content: { "application/json": { schema: ref("ListName") } } },
          responses: { "204": { description: "Successful Response" }, ...validationError },
        }),
      },
      "/v2/lists/{list_key}/items": {
        get: operation("list_items_v2_lists__list_key__items_get", "List Items", {
          parameters: [listKey],
          responses: { "200": jsonBody(ref("WatchedItems")), ...validationError },
        }),
        post: operation("add_items_v2_lists__list_key__items_post", "Add Items", {
          parameters: [listKey],
          requestBody: { required: true, content: { "application/json": { schema: ref("TaxIds") } } },
          responses: { "200": jsonBody(ref("BulkResult")), ...validationError },
        }),
        delete: operation("remove_items_v2_lists__list_key__items_delete", "Remove Items", {
          parameters: [listKey],
          requestBody: { required: true, content: { "application/json": { schema: ref("TaxIds") } } },
          responses: { "200": jsonBody(ref("BulkResult")), ...validationError },
        }),
      },
      "/v2/lists/{list_key}/changes": {
        get: operation("list_changes_v2_lists__list_key__changes_get", "List Changes", {
          description:
            "Changes of the list's items in an interval of at most seven days, both ends inclusive.",
          parameters: [
            listKey,
            dateParam(settings.changesFromParam, "First day of the interval (inclusive)"),
            dateParam(settings.changesToParam, "Last day of the interval (inclusive)"),
          ],
          responses: { "200": jsonBody(ref("ChangesResponse")), ...validationError },
        }),
      },
    },
    components: {
      schemas: schemas(),
      securitySchemes: { APIKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" } },
    },
  };
}

function schemas(): Record<string, unknown> {
  const str = (title: string) => ({ type: "string", title });
  const day = (title: string) => ({ type: "string", format: "date", title });
  const object = (title: string, properties: Record<string, unknown>, required: string[]) => ({
    type: "object",
    title,
    properties,
    required,
  });
  const array = (title: string, items: unknown) => ({ type: "array", title, items });
  return {
    ListName: object("ListName", { list_name: str("List Name") }, ["list_name"]),
    TaxIds: object("TaxIds", { tax_ids: array("Tax Ids", { type: "string" }) }, ["tax_ids"]),
    WatchList: object(
      "WatchList",
      {
        list_key: str("List Key"),
        list_name: str("List Name"),
        created_at: day("Created At"),
        watch_count: { type: "integer", title: "Watch Count" },
      },
      ["list_key", "list_name"],
    ),
    WatchLists: object(
      "WatchLists",
      {
        watch_lists: array("Watch Lists", ref("WatchList")),
        total_watch_count: { type: "integer", title: "Total Watch Count" },
      },
      ["watch_lists"],
    ),
    WatchedItems: object(
      "WatchedItems",
      {
        watched_items: array(
          "Watched Items",
          object("WatchedItem", { tax_id: str("Tax Id"), added_at: day("Added At") }, ["tax_id"]),
        ),
      },
      ["watched_items"],
    ),
    BulkResult: object(
      "BulkResult",
      {
        success: array("Success", { type: "string" }),
        failed: array("Failed", { type: "object" }),
      },
      ["success", "failed"],
    ),
    ChangedItem: object(
      "ChangedItem",
      {
        change: day("Change"),
        tax_id: str("Tax Id"),
        chapter: str("Chapter"),
        changed_headings: array("Changed Headings", { type: "string" }),
        path: str("Path"),
      },
      ["change", "tax_id", "path"],
    ),
    ChangesResponse: object(
      "ChangesResponse",
      {
        start_date: day("Start Date"),
        end_date: day("End Date"),
        changed_items: array("Changed Items", ref("ChangedItem")),
      },
      ["start_date", "end_date", "changed_items"],
    ),
    ValidationError: object(
      "ValidationError",
      {
        loc: array("Location", { anyOf: [{ type: "string" }, { type: "integer" }] }),
        msg: str("Message"),
        type: str("Error Type"),
      },
      ["loc", "msg", "type"],
    ),
    HTTPValidationError: object(
      "HTTPValidationError",
      { detail: array("Detail", ref("ValidationError")) },
      [],
    ),
  };
}

/** FastAPI's 422 for query parameters that are missing or not dates. */
export function queryValidationError(problems: Array<{ name: string; value: string | undefined }>): {
  detail: Array<Record<string, unknown>>;
} {
  return {
    detail: problems.map(({ name, value }) =>
      value === undefined
        ? { type: "missing", loc: ["query", name], msg: "Field required", input: null }
        : {
            type: "date_from_datetime_parsing",
            loc: ["query", name],
            msg: "Input should be a valid date or datetime, input is too short",
            input: value,
          },
    ),
  };
}
