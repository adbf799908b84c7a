# corpus: keras-version=2
import tensorflow as tf

from segment import SegmentationModel

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = SegmentationModel(loss_name="focal")
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4))
