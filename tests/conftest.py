import sys
from pathlib import Path

# Make tests/strategies.py importable as `strategies`.
sys.path.insert(0, str(Path(__file__).parent))
