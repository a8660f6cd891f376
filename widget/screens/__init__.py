"""The widget's screens: for each template in jinja2/widget/fragments/, the module of the same
name builds its context (the templates call a screen a view: `data-gg-view`, `render_view`).

`dispatch` picks the screen for a tool's outcome; `actions` and `card` build the parts several
screens share (`_action.html`, `_card.html`). Drawing them is widget.rendering's job.
"""
