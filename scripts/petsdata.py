"""The pet forms in stage order, as petprogress(7) §2 lists them; shared by the pet scripts."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = [
    ("Tadpole", "tadpole"), ("Minnow", "minnow"), ("Frog", "frog"), ("Hermit Crab", "hermit"),
    ("Starfish", "starfish"), ("Jellyfish", "jellyfish"), ("Squid", "squid"), ("Seahorse", "seahorse"),
    ("Dolphin", "dolphin"), ("Shark", "shark"), ("Otter", "otter"), ("Fox", "fox"), ("Lynx", "lynx"),
    ("Wolf", "wolf"), ("Bear", "bear"), ("Bison", "bison"), ("Elephant", "elephant"), ("Rhino", "rhino"),
    ("Lion", "lion"), ("Floating God", "god"),
]
NAMES = [name for name, _ in STAGES]
BASES = [base for _, base in STAGES]
