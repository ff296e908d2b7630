from django.urls import path

from . import views

app_name = "wizards"

urlpatterns = [
    path("", views.table_list, name="list"),
    path("new/", views.table_new, name="new"),
    path("invitation/<slug:token>/", views.invitation, name="invitation"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/invite/", views.invite, name="invite"),
    path("<int:table_id>/character/", views.character_edit, name="character"),
    path("<int:table_id>/start/", views.session_start, name="start"),
    path("characters/<int:character_id>/", views.sheet, name="sheet"),
    path("characters/<int:character_id>/sheet.pdf", views.sheet_pdf, name="sheet_pdf"),
    path("characters/<int:character_id>/sheet.json", views.sheet_json, name="sheet_json"),
    path("sessions/<int:session_id>/", views.session_page, name="session"),
    path("sessions/<int:session_id>/version/", views.session_version, name="session_version"),
    path("sessions/<int:session_id>/act/", views.session_act, name="act"),
]
