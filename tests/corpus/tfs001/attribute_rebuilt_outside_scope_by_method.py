import tensorflow as tf
from tensorflow.keras.layers import Conv2D, Dense, Flatten, Input
from tensorflow.keras.models import Model
from tensorflow.keras.optimizers import Adam


class ConvNet(object):
    """Benchmark network: `fit` rebuilds and recompiles unless told not to."""

    def __init__(self, filters=16, learning_rate=0.001, batch_size=64, epochs=5):
        self.filters = filters
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        self.epochs = epochs
        self.model = None

    def build_network(self, input_shape, output_size):
        inputs = Input(shape=input_shape)
        hidden = Conv2D(self.filters, 3, activation="relu")(inputs)
        outputs = Dense(output_size)(Flatten()(hidden))
        self.model = Model(inputs, outputs)

    def compile_model(self):
        self.model.compile(Adam(learning_rate=self.learning_rate), "mse")

    def fit(self, x, y, build=True):
        if build:
            self.build_network(x.shape[1:], y.shape[1])
            self.compile_model()
        self.model.fit(x, y, batch_size=self.batch_size, epochs=self.epochs)


def train_on_gpus(train_x, train_y, num_gpus):
    strategy = tf.distribute.MirroredStrategy(devices=[f"/gpu:{g:d}" for g in range(num_gpus)])
    with strategy.scope():
        net = ConvNet()
        net.batch_size *= num_gpus
        net.build_network(train_x.shape[1:], train_y.shape[1])
        net.compile_model()
    # `fit` builds a fresh model outside the scope: the distributed one is thrown away
    net.fit(train_x, train_y)  # expect: TFS001
    return net
