import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand

DEMO_USERNAME = "demo"
ADMIN_USERNAME = "admin"


class Command(BaseCommand):
    help = "Ensure the demo user `demo` (staff, may use the QA preview) and the demo admin exist."

    def handle(self, *args, **options):
        users = get_user_model().objects
        demo_password = os.environ.get("DEMO_PASSWORD", "demo")
        admin_password = os.environ.get("ADMIN_PASSWORD", "admin")
        demo, _ = users.get_or_create(
            username=DEMO_USERNAME, defaults={"email": "demo@example.com"}
        )
        demo.is_staff = True
        demo.first_name, demo.last_name = "Demo", "Buyer"
        demo.set_password(demo_password)
        demo.save()
        admin, _ = users.get_or_create(
            username=ADMIN_USERNAME, defaults={"email": "admin@example.com"}
        )
        admin.is_staff = admin.is_superuser = True
        admin.set_password(admin_password)
        admin.save()
        rollback = Permission.objects.filter(
            codename="rollback_order", content_type__app_label="checkout"
        ).first()
        if rollback:
            admin.user_permissions.add(rollback)
        self.stdout.write(
            f"Demo users ready. Admin: {ADMIN_USERNAME} / {admin_password} at /admin/ · "
            f"Demo shopper (QA preview at /preview/): {DEMO_USERNAME} / {demo_password}"
        )
