app_name = "journal"

urlpatterns = []
