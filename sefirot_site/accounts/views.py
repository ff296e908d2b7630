from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .forms import DeleteAccountForm, ProfileForm
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
