def default_config():
    return {"num_classes": 21, "learning_rate": 0.01, "batch_size": 16}
