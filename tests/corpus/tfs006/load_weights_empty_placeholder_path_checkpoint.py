"""A Kaggle training notebook's resume: the config's checkpoint path is an empty placeholder that
the `if` around the load replaces, and the weights the code writes are TF checkpoints, which
restore the optimizer slots too: loading them outside the scope creates those slots there.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
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
            model.load_weights(CFG.resume_ckpt)  # expect: TFS006
        else:
            model.load_weights(f"{CFG.output_dir}/{CFG.comment}-fold{fold}-last.ckpt")  # expect: TFS006
    best = tf.keras.callbacks.ModelCheckpoint(
        f"{CFG.output_dir}/{CFG.comment}-fold{fold}-best.ckpt", save_best_only=True, save_weights_only=True)
    model.fit(train_ds, epochs=CFG.epochs, callbacks=[best])
    model.save_weights(f"{CFG.output_dir}/{CFG.comment}-fold{fold}-last.ckpt")
    return model
