from django.shortcuts import render


def home(request):
    return render(request, "home.html")


def healthz(request):
    raise NotImplementedError  # the foundation issue builds this
