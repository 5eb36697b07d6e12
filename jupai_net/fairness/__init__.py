"""jupai-net package."""
