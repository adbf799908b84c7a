"""The tensorflow/models `get_strategy_scope` shape, copied into a project's own utils."""
import tensorflow as tf


class DummyContextManager(object):

  def __enter__(self):
    pass

  def __exit__(self, *args):
    pass


def get_strategy_scope(strategy):
  if strategy:
    strategy_scope = strategy.scope()
  else:
    strategy_scope = DummyContextManager()
  return strategy_scope


def run(flags_obj, num_gpus):
  distribution = tf.distribute.MirroredStrategy() if num_gpus > 1 else None
  with get_strategy_scope(distribution):
    model = tf.keras.applications.ResNet50(weights=None, classes=10)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy", metrics=["accuracy"])
  model.fit(tf.data.Dataset.range(10).batch(2), epochs=flags_obj.epochs)
  return model
