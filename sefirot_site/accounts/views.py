from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from .forms import DeleteAccountForm, ProfileForm
from .models import new_calendar_token
from .services import delete_account


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def delete(request):
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        delete_account(request.user)
        # After the deletion succeeded, so a failure leaves the person logged in.
        logout(request)
        messages.success(request, "Your account and your personal data are deleted. Farewell.")
        return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})


@login_required
@require_POST
def renew_calendar(request):
    """A new secret address for the calendar of deadlines; the old one answers 404 from now on."""
    request.user.calendar_token = new_calendar_token()
    request.user.save(update_fields=["calendar_token"])
    messages.success(request, "Your calendar has a new address, and the old one no longer works: "
                              "subscribe to the new one in your calendar app.")
    return redirect(reverse("profile") + "#calendar-heading")


@login_required
@require_POST
def mail_try_again(request):
    """Clear the mark of an address that bounced: mail goes to it again (and is marked
    again if it bounces again)."""
    user = request.user
    user.undeliverable_email, user.undeliverable_since, user.undeliverable_reason = "", None, ""
    user.save(update_fields=["undeliverable_email", "undeliverable_since", "undeliverable_reason"])
    messages.success(request, f"We mail {user.email} again." if user.email else "We mail you again.")
    return redirect("profile")
