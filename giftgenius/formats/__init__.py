"""Date formats for every language the site speaks (settings.FORMAT_MODULE_PATH).

Staff read saga timelines where steps are seconds apart, so a date and time is shown the same
way in every language: ISO date, time to the second, and the zone ("2026-05-04 13:07:42 UTC").
Each language's module only takes these from here; everything else falls back to Django's
own locale formats. The widget and the preview show no dates, so only the admin (and any page
that shows a date and time) is affected.
"""

DATETIME_FORMAT = "Y-m-d H:i:s T"
SHORT_DATETIME_FORMAT = "Y-m-d H:i:s T"
