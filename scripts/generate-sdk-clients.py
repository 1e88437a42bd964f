#!/usr/bin/env python3
"""Writes AtelierKit's typed domain clients from openapi.yaml (issue 52).

One struct per tag (`session.wardrobe`, `session.commerce`, ...), one method per operation: it
takes the path parameters as values, the query and a JSON body as the generated types, returns the
success body (or nothing), and throws `AtelierError` for every other answer, so app code never
switches on `Operations.*.Output`.

    scripts/generate-sdk-clients.py           # writes Clients/AtelierKit/Sources/AtelierKit/Domains/*.swift
    scripts/generate-sdk-clients.py --check   # exits 1 when the files differ from openapi.yaml

The names follow swift-openapi-generator's (the `idiomatic` strategy the package uses), which
the build checks: a name that drifted does not compile.
"""
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi.yaml"
OUT = ROOT / "Clients" / "AtelierKit" / "Sources" / "AtelierKit" / "Domains"

# tag → (property on the session, type name, what it covers)
DOMAINS = {
    "accounts": ("account", "AccountClient", "the signed-in account: profile, settings, devices, export and deletion"),
    "media": ("media", "MediaClient", "uploads and the caller's media"),
    "catalog": ("catalog", "CatalogClient", "stores, products, brands and categories as shoppers and admins see them"),
    "discovery": ("discovery", "DiscoveryClient", "feeds, likes, follows, boards, the wishlist and trending products"),
    "social": ("social", "SocialClient", "friends, connections, blocks, posts, reactions, comments, reports and invite links"),
    "moments": ("moments", "MomentsClient", "moments, their members, check-ins and albums"),
    "wardrobe": ("wardrobe", "WardrobeClient", "the closet, outfits, the calendar, packing lists, recaps and size advice"),
    "commerce": ("commerce", "CommerceClient", "the cart, checkout, orders, reviews, trade customers and the store's selling settings"),
    "magazine": ("magazine", "MagazineClient", "issues, articles, authors, bookmarks and ratings"),
    "magazine-editor": ("editor", "EditorClient", "the magazine's editing: issues, articles, authors and publishing"),
    # `session.notifications` is the hand-written push registration (`NotificationSettings`).
    "notifications": ("inbox", "NotificationsClient", "the inbox and notification settings"),
    "admin": ("admin", "AdminClient", "administration: moderation, store applications and site pages"),
    # Not tags: the operations `CLIENT_OF` moves out of their tag's client.
    "search": ("search", "SearchClient", "product and store search, suggestions and saved searches"),
    "portal": ("portal", "PortalClient", "a store's staff at work: its products, staff, orders, stock, selling settings, discounts, trade customers and stats"),
    "site": ("site", "SiteClient", "the privacy policy, terms and the contact form"),
}

# Operations whose client is not their tag's: search has its own client, and what only a store's
# staff (or an admin) may do lives in `session.portal` (`session.admin`), not beside the shopper's calls.
CLIENT_OF = {
    **{op: "search" for op in [
        "searchProducts", "suggestSearch", "searchStores", "listSavedSearches", "createSavedSearch", "deleteSavedSearch"]},
    **{op: "portal" for op in [
        "listMyStores", "updateStore", "createProduct", "replaceProduct", "deleteProduct", "activateProduct",
        "deactivateProduct", "setProductPhotos", "listStoreStaff", "inviteStoreStaff", "removeStoreStaff",
        "listUnavailableReports", "resolveUnavailableReport", "getStoreStats", "proposeBrand", "listStoreOrders",
        "transitionStoreOrder", "getCommerceSettings", "updateCommerceSettings", "updateVariantStock",
        "listDiscountCodes", "createDiscountCode", "listTradeCustomers", "decideTradeCustomer",
        "setProductTradeTerms", "replyToReview", "putSizeChart"]},
    **{op: "admin" for op in ["assignStoreOwner", "suspendStore", "reinstateStore"]},
}

STATUS_CASES = {
    200: "ok", 201: "created", 202: "accepted", 204: "noContent", 400: "badRequest", 401: "unauthorized",
    403: "forbidden", 404: "notFound", 409: "conflict", 413: "contentTooLarge", 415: "unsupportedMediaType",
    422: "unprocessableContent", 429: "tooManyRequests",
}
BINARY_CASES = {"application/zip": "applicationZip", "image/png": "png"}


def upper_first(name):
    return name[0].upper() + name[1:]


def resolve(spec, node, kind):
    if "$ref" in node:
        return spec["components"][kind][node["$ref"].split("/")[-1]]
    return node


def schema_ref(schema):
    ref = (schema or {}).get("$ref", "")
    return ref.split("/")[-1] if ref.startswith("#/components/schemas/") else None


def method(spec, path_item, op):
    op_id = op["operationId"]
    type_name = f"Operations.{upper_first(op_id)}"
    params = [resolve(spec, p, "parameters") for p in path_item.get("parameters", []) + op.get("parameters", [])]
    path_params = [p for p in params if p["in"] == "path"]
    query_params = [p for p in params if p["in"] == "query"]
    required_headers = [p for p in params if p["in"] == "header" and p.get("required")]
    anonymous = op.get("security") == []

    args, call = [], []
    for p in path_params:
        kind = f"{type_name}.Input.Path.{upper_first(p['name'])}Payload" if "enum" in p["schema"] else "String"
        args.append(f"{p['name']}: {kind}")
    if path_params:
        call.append("path: .init(" + ", ".join(f"{p['name']}: {p['name']}" for p in path_params) + ")")
    if query_params:
        required = any(p.get("required") for p in query_params)
        args.append(f"query: {type_name}.Input.Query" + ("" if required else " = .init()"))
        call.append("query: query")
    for h in required_headers:
        name = "idempotencyKey" if h["name"] == "Idempotency-Key" else h["name"]
        args.append(f"{name}: String")
    if required_headers:
        call.append("headers: .init(" + ", ".join(
            ("idempotencyKey" if h["name"] == "Idempotency-Key" else h["name"]) + ": " +
            ("idempotencyKey" if h["name"] == "Idempotency-Key" else h["name"]) for h in required_headers) + ")")
    body = op.get("requestBody")
    if body:
        body = resolve(spec, body, "requestBodies")
        content = body["content"]
        optional = not body.get("required", False)
        ref = schema_ref(content.get("application/json", {}).get("schema")) if list(content) == ["application/json"] else None
        if ref:
            args.append(f"_ body: Components.Schemas.{ref}" + ("? = nil" if optional else ""))
            call.append("body: body.map { .json($0) }" if optional else "body: .json(body)")
        else:
            args.append(f"body: {type_name}.Input.Body" + ("? = nil" if optional else ""))
            call.append("body: body")

    successes, failures = [], []
    for code, response in op["responses"].items():
        code = int(code)
        response = resolve(spec, response, "responses")
        (successes if code < 300 else failures).append((code, response))

    returns, cases = "Void", []
    for code, response in successes:
        case = STATUS_CASES[code]
        content = response.get("content") or {}
        if not content:
            cases.append(f"case .{case}: return")
        elif "application/json" in content:
            schema = content["application/json"].get("schema") or {}
            ref, item = schema_ref(schema), schema_ref(schema.get("items")) if schema.get("type") == "array" else None
            kind = (f"Components.Schemas.{ref}" if ref else f"[Components.Schemas.{item}]" if item
                    else f"{type_name}.Output.{upper_first(case)}.Body.JsonPayload")
            returns = kind if returns == "Void" else returns
            cases.append(f"case .{case}(let answer): return try answer.body.json")
        else:
            (media_type,) = content
            returns = "HTTPBody"
            cases.append(f"case .{case}(let answer):\n            switch answer.body {{ case .{BINARY_CASES[media_type]}(let bytes): return bytes }}")
    for code, response in failures:
        case = STATUS_CASES[code]
        has_problem = "application/problem+json" in (response.get("content") or {})
        if code == 401 and not anonymous:
            cases.append(f"case .{case}: throw AtelierError.signedOut")
        elif code == 429:
            said = "answer.headers.retryAfter.map { .seconds($0) }" if "Retry-After" in (response.get("headers") or {}) else "nil"
            cases.append(f"case .{case}(let answer): throw AtelierError.rateLimited(retryAfter: {said})")
        elif has_problem:
            cases.append(f"case .{case}(let answer): throw AtelierError(try? answer.body.applicationProblemJson, status: {code})")
        else:
            cases.append(f"case .{case}: throw AtelierError.rejected(status: {code}, detail: \"HTTP {code}\", fields: [])")
    cases.append(f"case .undocumented(let status, _): throw AtelierError.unexpectedResponse(\"{op_id} answered \\(status)\")")

    pager = ""
    page_ref = None
    for code, response in successes:
        schema = ((response.get("content") or {}).get("application/json") or {}).get("schema") or {}
        page_ref = schema_ref(schema)
    page = spec["components"]["schemas"].get(page_ref, {}) if page_ref else {}
    item = schema_ref((page.get("properties", {}).get("items") or {}).get("items"))
    if any(p["name"] == "cursor" for p in query_params) and item and "nextCursor" in page.get("properties", {}):
        pager_args = ", ".join(a for a in args if a.startswith(tuple(p["name"] for p in path_params)) or a.startswith("query:"))
        pass_path = "".join(f"{p['name']}: {p['name']}, " for p in path_params)
        pager = (
            f"\n    /// Every item of `{op_id}`, fetched a page at a time as the loop asks (`.pages` for whole pages).\n"
            f"    public func {op_id}Items({pager_args}) -> CursorPages<Components.Schemas.{item}> {{\n"
            f"        CursorPages {{ cursor in\n"
            f"            var query = query\n"
            f"            query.cursor = cursor\n"
            f"            let page = try await self.{op_id}({pass_path}query: query)\n"
            f"            return (page.items, page.nextCursor)\n"
            f"        }}\n"
            f"    }}\n"
        )
    summary = " ".join(str(op.get("summary", op_id)).split())
    discardable = "" if returns == "Void" else "    @discardableResult\n"
    signature = ", ".join(args)
    result = "" if returns == "Void" else f" -> {returns}"
    body_lines = "\n        ".join(cases)
    return (
        f"    /// {summary}\n"
        f"{discardable}"
        f"    public func {op_id}({signature}) async throws{result} {{\n"
        f"        let output = try await session.client.{op_id}({', '.join(call)})\n"
        f"        switch output {{\n"
        f"        {body_lines}\n"
        f"        }}\n"
        f"    }}\n"
        f"{pager}"
    )


def render():
    spec = yaml.safe_load(SPEC.read_text())
    by_tag = {tag: [] for tag in DOMAINS}
    for path, item in spec["paths"].items():
        for verb, op in item.items():
            if verb == "parameters":
                continue
            (tag,) = op["tags"]
            tag = CLIENT_OF.get(op["operationId"], tag)
            by_tag[tag].append((op["operationId"], method(spec, item, op)))
    files = {}
    for tag, methods in by_tag.items():
        prop, type_name, covers = DOMAINS[tag]
        text = (
            "// Generated by scripts/generate-sdk-clients.py from openapi.yaml: do not edit.\n"
            "import AtelierAPI\nimport Foundation\nimport OpenAPIRuntime\n\n"
            f"/// The `{tag}` operations: {covers}.\n"
            "/// Every answer but the documented success throws `AtelierError`.\n"
            f"public struct {type_name}: Sendable {{\n"
            "    let session: AtelierSession\n\n"
            "    public init(session: AtelierSession) {\n        self.session = session\n    }\n\n"
            + "\n".join(m for _, m in sorted(methods))
            + "}\n\n"
            f"extension AtelierSession {{\n    /// {covers[0].upper() + covers[1:]}.\n"
            f"    public var {prop}: {type_name} {{ {type_name}(session: self) }}\n}}\n"
        )
        files[OUT / f"{type_name}.swift"] = text
    return files


def main():
    files = render()
    if "--check" in sys.argv:
        stale = [str(p.relative_to(ROOT)) for p, text in files.items() if not p.exists() or p.read_text() != text]
        extra = [str(p.relative_to(ROOT)) for p in OUT.glob("*.swift") if p not in files] if OUT.exists() else []
        if stale or extra:
            print("AtelierKit's domain clients differ from openapi.yaml; run scripts/generate-sdk-clients.py:", *(stale + extra), sep="\n  ")
            sys.exit(1)
        print(f"AtelierKit's domain clients match openapi.yaml ({len(files)} files).")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text)
    print(f"wrote {len(files)} files to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
