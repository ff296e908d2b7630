# The password of every user the fixtures create (alice, bob, outsider, make_user).
PASSWORD = "a lantern in the tenth sefira"
