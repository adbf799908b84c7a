"""A framework-agnostic `update_model` takes the TensorFlow branch only for Keras models: a
PyTorch module (`torch.nn.Module` subclass) is never a `tf.keras.Model`, so no optimizer step
runs there, even after a MirroredStrategy was set for TensorFlow models."""
import tensorflow as tf
import torch


class OneLayerTorchModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(3, 1, bias=False)

    def forward(self, x):
        return self.fc1(x)


def update_model(model, gradients):
    if isinstance(model, tf.keras.Model):
        model.current_optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    elif isinstance(model, torch.nn.Module):
        for gradient, parameter in zip(gradients, model.parameters()):
            parameter.grad = gradient.clone()
        model.current_optimizer.step()
        model.current_optimizer.zero_grad()


def build(model_fn, optimizer_fn):
    models = [model_fn()]
    if len(tf.config.list_physical_devices("GPU")) > 1 and isinstance(models[0], tf.keras.Model):
        tf.distribute.experimental_set_strategy(tf.distribute.MirroredStrategy())
        models = [model_fn()]
    for model in models:
        model.current_optimizer = optimizer_fn(model)
    return models[0]


def test_torch_model_update():
    model = build(OneLayerTorchModel, lambda m: torch.optim.SGD(params=m.parameters(), lr=0.1))
    gradients = [torch.tensor([[1.0, 1.0, 1.0]])]
    update_model(model, gradients)
