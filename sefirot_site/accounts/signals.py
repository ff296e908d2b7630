from django.dispatch import Signal

# Sent by services.delete_account(user) inside its transaction, before the user row is
# deleted. kwargs: user. Receivers remove or anonymise what they keep about that person
# (games turn the seat anonymous, the journal deletes its entries); an exception rolls
# the whole deletion back.
account_deleting = Signal()
