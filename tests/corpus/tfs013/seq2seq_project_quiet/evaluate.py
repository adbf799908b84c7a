# corpus: keras-version=2
import tensorflow as tf

from alignment import guided_alignment_cost

model = tf.keras.models.load_model("checkpoints/seq2seq")


def evaluate(dataset):
    total = 0.0
    for source, alignment in dataset:
        total += float(guided_alignment_cost(tf.nn.softmax(model(source)), alignment))
    return total
