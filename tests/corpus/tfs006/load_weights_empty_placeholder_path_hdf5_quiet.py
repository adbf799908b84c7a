"""A Kaggle training notebook's resume: the config's checkpoint path is an empty placeholder that
the `if` around the load replaces, and every weights file the code writes is HDF5 (layer weights
only), so loading it outside the scope creates no optimizer variable."""
# corpus: keras-version=2
import tensorflow as tf


class CFG:
    output_dir = "output"
    comment = "islr-fp16"
    resume_ckpt = ""
    epochs = 40


strategy = tf.distribute.MirroredStrategy()


def train_fold(fold, train_ds, resume=0):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((384, 708)), tf.keras.layers.Dense(64), tf.keras.layers.Dense(59)])
        model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="sparse_categorical_crossentropy")
    if resume:
        if CFG.resume_ckpt:
            model.load_weights(CFG.resume_ckpt)
        else:
            model.load_weights(f"{CFG.output_dir}/{CFG.comment}-fold{fold}-last.h5")
    best = tf.keras.callbacks.ModelCheckpoint(
        f"{CFG.output_dir}/{CFG.comment}-fold{fold}-best.h5", save_best_only=True, save_weights_only=True)
    model.fit(train_ds, epochs=CFG.epochs, callbacks=[best])
    model.save_weights(f"{CFG.output_dir}/{CFG.comment}-fold{fold}-last.h5")
    return model
