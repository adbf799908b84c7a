from pathlib import Path


class Config:
    MODEL_PRELOAD = True
    MODEL_PRELOAD_NAME = "model_reference.h5"
    MODEL_PATH = Path(".", "..", "saved_models")
    LEARNING_RATE = 1e-4
