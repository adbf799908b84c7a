"""The model comes from a fixture inside the scope and everything it is compiled with is made
there too; what an unseen call returns is a model only once the code compiles it (the dataset
made in the scope is not)."""
import pytest
import tensorflow as tf


@pytest.mark.parametrize("model_type", ["sequential", "functional"])
def test_training(get_model, make_dataset, model_type):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = get_model(model_type)
        dataset = make_dataset(batch_size=64)
        optimizer = tf.keras.optimizers.Adam()
        model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy",
                      metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    checkpoint = tf.train.Checkpoint(dataset=dataset)
    model.fit(strategy.experimental_distribute_dataset(dataset), epochs=1)
    checkpoint.restore("ckpt-1")
