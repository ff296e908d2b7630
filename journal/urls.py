from django.urls import path

from . import views

app_name = "journal"

urlpatterns = [
    path("", views.entry_list, name="list"),
    path("new/", views.new_entry, name="new"),
    path("draw/", views.draw_entry, name="draw"),
    path("statistics/", views.statistics, name="stats"),
    path("export/", views.export, name="export"),
    path("import/", views.import_journal, name="import"),
    path("<int:pk>/", views.entry_detail, name="detail"),
    path("<int:pk>/edit/", views.entry_edit, name="edit"),
    path("<int:pk>/delete/", views.entry_delete, name="delete"),
    path("<int:pk>/share/", views.entry_share, name="share"),
    path("<int:pk>/pdf/", views.entry_pdf, name="pdf"),
    path("<int:pk>/seals/new/", views.seal_new, name="seal_new"),
    path("<int:pk>/seals/preview/", views.seal_preview, name="seal_preview"),
    path("<int:pk>/seals/<int:seal_pk>/", views.seal_detail, name="seal"),
    path("<int:pk>/seals/<int:seal_pk>/retry/", views.seal_retry, name="seal_retry"),
    path("<int:pk>/seals/<int:seal_pk>/<slug:kind>", views.seal_file, name="seal_file"),
    path("shared/<slug:token>/", views.shared_entry, name="shared"),
    path("shared/<slug:token>/seals/<int:seal_pk>/<slug:kind>", views.shared_seal_file, name="shared_seal_file"),
]
