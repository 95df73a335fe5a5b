"""Stand-in for Pillow's package, for one annotation: adafruit_is31fl3731
imports ``from PIL import Image`` inside a try and annotates ``image()``
with it, which CPython evaluates when the class is made. Nothing here
draws: the game never calls ``image()``."""
