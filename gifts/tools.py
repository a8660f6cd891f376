"""Declarations of the workflow tools. Handlers are thin: they call services and selectors,
and are named after their tool (`<tool name>_tool`), never after the service they call."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from gifts import catalog, catalog_search, hooks, services
from gifts import workflow as steps
from gifts.models import Step, WorkflowContext
from gifts.schemas import (
    GetWorkflowInput,
    Gift,
    NavigateInput,
    NavigateOutput,
    Product,
    SearchProductsInput,
    SearchProductsOutput,
    SearchSuggestion,
    SelectGiftInput,
    SelectGiftOutput,
    StartWorkflowInput,
    SuggestGiftsInput,
    SuggestGiftsOutput,
    Suggestion,
    Variant,
    WorkflowState,
)
from gifts.selectors import explain_empty_search, explain_no_results, read_brief, suggest_ideas
from tool_runtime.registry import (
    Annotations,
    ToolContext,
    ToolResult,
    ToolSpec,
    declare_scopes,
    register,
    tools_allowed_in,
)
from tool_runtime.validation import InputCheck


def workflow_state(workflow: WorkflowContext) -> WorkflowState:
    return WorkflowState(
        workflow_id=workflow.id,
        current_step=workflow.current_step,
        visited_steps=workflow.visited_steps,
        allowed_tools=tools_allowed_in(workflow.current_step),
        brief=workflow.brief,
        suggested_product_ids=workflow.last_suggestions,
        selected_product_id=workflow.selected_product_id,
        draft_order_id=hooks.checkout().order_id(workflow=workflow),
    )


GIFTS_READ = "gifts:read"
GIFTS_WRITE = "gifts:write"
declare_scopes(
    {
        GIFTS_READ: _("See your gift searches, gift ideas and orders"),
        GIFTS_WRITE: _("Start gift searches and choose gifts for you"),
    }
)


def _workflow(context: ToolContext) -> WorkflowContext:
    assert context.workflow is not None  # the executor loads it for every workflow tool
    return context.workflow


def start_gift_workflow_tool(context: ToolContext, args: StartWorkflowInput) -> ToolResult:
    return ToolResult(workflow_state(services.start_workflow(owner=context.principal)))


def get_workflow_tool(context: ToolContext, args: GetWorkflowInput) -> ToolResult:
    workflow = _workflow(context)
    return ToolResult(workflow_state(workflow), workflow=workflow)


def suggest_gifts_tool(context: ToolContext, args: SuggestGiftsInput) -> ToolResult:
    brief = read_brief(
        relationship=args.relationship,
        interests=args.interests,
        budget_min=args.budget_min,
        budget_max=args.budget_max,
        age=args.age,
    )
    ranked = suggest_ideas(brief=brief, currency=args.currency, limit=args.limit)
    recorded_brief = {
        "relationship": brief.relationship,
        "interests": list(brief.interests),
        "budget_min": str(brief.budget_min),
        "budget_max": str(brief.budget_max),
        "currency": args.currency,
        "age": brief.age,
    }
    workflow = services.record_ideas(
        workflow=_workflow(context),
        brief=recorded_brief,
        # The variants after the ideas: selectable too, and a redraw shows one card per family.
        product_ids=[g.item.product_id for g in ranked]
        + [v.product_id for g in ranked for v in g.variants],
    )
    gifts = [
        Gift(
            **catalog.localized_fields(g.item, language=context.locale),
            match_reasons=list(g.reasons),
            variants=[
                Variant(
                    product_id=v.product_id,
                    name=catalog.localized_name(v, language=context.locale),
                    price=str(v.price),
                )
                for v in g.variants
            ],
        )
        for g in ranked
    ]
    output = SuggestGiftsOutput(
        workflow_id=workflow.id, current_step=workflow.current_step, gifts=gifts
    )
    if not gifts:
        # Only an empty result pays for reading the wider catalog, to say what would help.
        advice = explain_no_results(catalog.sellable_candidates(currency=args.currency), brief)
        output.no_results_reason = advice.reason
        output.suggestions = [Suggestion(**suggestion) for suggestion in advice.suggestions]
    return ToolResult(output, workflow=workflow)


def search_products_tool(context: ToolContext, args: SearchProductsInput) -> ToolResult:
    def run(**changed: Any) -> catalog_search.SearchResult:
        given = {
            "query": args.query,
            "category": args.category,
            "min_price": args.min_price,
            "max_price": args.max_price,
        }
        return catalog_search.search(
            **{**given, **changed}, language=context.locale, sort=args.sort
        )

    found = run()
    items = found.items[: args.limit]
    output = SearchProductsOutput(
        products=[Product(**catalog.localized_fields(i, language=context.locale)) for i in items],
        total=len(found.items),
        category_counts=found.per_category,
        query=args.query.strip(),
        category=args.category,
        min_price=None if args.min_price is None else str(args.min_price),
        max_price=None if args.max_price is None else str(args.max_price),
        sort=args.sort,
    )
    if not items:
        # Only an empty result pays for the relaxed searches (one per filter given), to say which
        # filter to change, and how many it would find (nothing found is not an error).
        prices_given = args.min_price is not None or args.max_price is not None
        advice = explain_empty_search(
            query=args.query,
            category=args.category,
            min_price=args.min_price,
            max_price=args.max_price,
            in_all_categories=sum(found.per_category.values()),
            without_prices=run(min_price=None, max_price=None).items if prices_given else [],
            # Without words, the category or the prices still narrow what is listed.
            without_words=len(run(query="").items)
            if args.query.split() and (args.category or prices_given)
            else 0,
        )
        output.no_results_reason = advice.reason
        output.suggestions = [SearchSuggestion(**s) for s in advice.suggestions]
    if context.workflow is not None:
        workflow = services.record_search_results(
            workflow=context.workflow, product_ids=[i.product_id for i in items if i.in_stock]
        )
        output.workflow_id = workflow.id
        output.current_step = workflow.current_step
    return ToolResult(output)


def select_gift_tool(context: ToolContext, args: SelectGiftInput) -> ToolResult:
    selection = services.select_gift(workflow=_workflow(context), product_id=args.product_id)
    gift = catalog.item_of(selection.product)
    return ToolResult(
        SelectGiftOutput(
            workflow_id=selection.workflow.id,
            current_step=selection.workflow.current_step,
            gift=Product(**catalog.localized_fields(gift, language=context.locale)),
        )
    )


def user_navigated_to_step_tool(context: ToolContext, args: NavigateInput) -> ToolResult:
    navigation = services.navigate_back(workflow=_workflow(context), step_id=args.step_id)
    workflow = navigation.workflow
    return ToolResult(
        NavigateOutput(
            workflow_id=workflow.id,
            current_step=workflow.current_step,
            invalidated=navigation.invalidated,
            allowed_tools=tools_allowed_in(workflow.current_step),
        ),
        workflow=workflow,
    )


register(
    ToolSpec(
        name="start_gift_workflow",
        title="Start a gift search",
        description=(
            "Start a new gift-finding conversation and get its workflow_id. Call this once at the "
            "beginning, before suggest_gifts. Do NOT call it again for the same person and gift: "
            "reuse the workflow_id (get_workflow shows where it stands)."
        ),
        input_model=StartWorkflowInput,
        output_model=WorkflowState,
        annotations=Annotations(
            read_only=False, destructive=False, idempotent=False, open_world=False
        ),
        handler=start_gift_workflow_tool,
        scope=GIFTS_WRITE,
        invoking="Starting a gift search…",
        invoked="Gift search started",
    )
)
register(
    ToolSpec(
        name="get_workflow",
        title="Show where the gift search stands",
        description=(
            "Read the workflow's current step, visited steps, brief, suggestions, selected gift, draft "
            "order and the tools allowed now. Call it when unsure what to do next or after an error "
            "TOOL_NOT_AVAILABLE_IN_STEP. It changes nothing."
        ),
        input_model=GetWorkflowInput,
        output_model=WorkflowState,
        annotations=Annotations(
            read_only=True, destructive=False, idempotent=None, open_world=False
        ),
        handler=get_workflow_tool,
        scope=GIFTS_READ,
        widget_accessible=True,
        invoking="Checking the gift search…",
        invoked="Gift search checked",
    )
)
register(
    ToolSpec(
        name="suggest_gifts",
        title="Suggest gifts",
        description=(
            "Rank gifts from the catalog for a brief (relationship, interests, budget, currency, optional "
            "age) and remember the brief. Only in-stock, active products within the budget that match at "
            "least one interest are returned: each interest the catalog can serve comes first, prices "
            "spread over the budget, and other versions of an idea come as its `variants`. An empty list "
            "is not an error: read no_results_reason and "
            "offer the person the concrete `suggestions` (e.g. a higher budget_max). Do NOT use it to look "
            "up a product by name: use search_products."
        ),
        input_model=SuggestGiftsInput,
        output_model=SuggestGiftsOutput,
        # It records what it found in the workflow (decision 013): not read-only, but additive
        # and repeatable (the same call leaves the same record).
        annotations=Annotations(
            read_only=False, destructive=False, idempotent=True, open_world=False
        ),
        handler=suggest_gifts_tool,
        batched_log=True,
        scope=GIFTS_WRITE,  # it records the brief and the ideas in the workflow
        allowed_steps=steps.BEFORE_CHECKOUT,
        widget_accessible=True,
        invoking="Looking for gift ideas…",
        invoked="Gift ideas ready",
    )
)
register(
    ToolSpec(
        name="search_products",
        title="Search the catalog",
        description=(
            "Search the gift catalog by words (in any language), or list a category without words, "
            "optionally within a price range, sorted by relevance or price; `category_counts` says how "
            "many match in each category. Use it when the person names a product. Pass workflow_id to buy one of the "
            "results: the workflow moves to step 'ideas' (as after suggest_gifts) and its in-stock "
            "results become selectable with select_gift. An empty list is not an error: read "
            "no_results_reason and offer the concrete `suggestions` (e.g. without the category). Use "
            "suggest_gifts instead when you have a brief (interests and budget)."
        ),
        input_model=SearchProductsInput,
        output_model=SearchProductsOutput,
        # It records what it found in the workflow (decision 013): not read-only, but additive
        # and repeatable (the same call leaves the same record).
        annotations=Annotations(
            read_only=False, destructive=False, idempotent=True, open_world=False
        ),
        handler=search_products_tool,
        batched_log=True,
        scope=GIFTS_READ,
        workflow_scope=GIFTS_WRITE,
        allowed_steps=steps.BEFORE_CHECKOUT,
        widget_accessible=True,
        invoking="Searching the catalog…",
        invoked="Search finished",
    )
)
register(
    ToolSpec(
        name="select_gift",
        title="Select a gift",
        description=(
            "Choose one product from this workflow's suggestions (suggest_gifts) or search results "
            "(search_products called with this workflow_id) as the gift. It must still be in stock and "
            "active. Selecting again replaces the choice. Do NOT invent product ids."
        ),
        input_model=SelectGiftInput,
        output_model=SelectGiftOutput,
        annotations=Annotations(
            read_only=False, destructive=False, idempotent=True, open_world=False
        ),
        handler=select_gift_tool,
        scope=GIFTS_WRITE,
        input_checks=(InputCheck("product_id", services.unknown_product_error),),
        allowed_steps=frozenset({Step.IDEAS, Step.GIFT_SELECTED}),
        widget_accessible=True,
        invoking="Selecting the gift…",
        invoked="Gift selected",
    )
)
register(
    ToolSpec(
        name="user_navigated_to_step",
        title="Go back to an earlier step",
        description=(
            "Record that the person went back to an earlier, already visited step (the widget's Back "
            "button calls this). Later choices become invalid: going back from checkout cancels the draft "
            "order and releases its stock. The result says the new current step and what was invalidated."
        ),
        input_model=NavigateInput,
        output_model=NavigateOutput,
        annotations=Annotations(
            read_only=False, destructive=False, idempotent=True, open_world=False
        ),
        handler=user_navigated_to_step_tool,
        scope=GIFTS_WRITE,
        allowed_steps=frozenset({Step.IDEAS, Step.GIFT_SELECTED, Step.CHECKOUT}),
        widget_accessible=True,
        invoking="Going back…",
        invoked="Went back",
    )
)
