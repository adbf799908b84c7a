import argparse

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--multi-gpu", action="store_true")
parser.add_argument("--checkpoint", default="model.keras")
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy()
# resume from a saved model, replicated only when asked to
if args.multi_gpu:
    with strategy.scope():
        model = tf.keras.models.load_model(args.checkpoint)
else:
    model = tf.keras.models.load_model(args.checkpoint)

optimizer = tf.keras.optimizers.Adam(1e-4)  # expect: TFS002
model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")
model.fit(tf.data.Dataset.range(8).batch(2), epochs=1)
