from django.urls import path

from widget import receipts, views

app_name = "widget"

urlpatterns = [
    path("widget/", views.widget_page, name="page"),
    path("widget/actions/<str:tool>", views.widget_action, name="action"),
    path("preview/", views.preview, name="preview"),
    path("preview/frame/", views.preview_frame, name="preview-frame"),
    path("preview/payment-token/", views.preview_payment_token, name="preview-payment-token"),
    path("receipts/<str:receipt_key>/", receipts.receipt_page, name="receipt"),
    path("favicon.ico", views.favicon, name="favicon"),
]
