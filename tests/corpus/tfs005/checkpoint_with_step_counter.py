import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    net = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(5)])
    opt = tf.keras.optimizers.Adam(0.1)

# the TF checkpoint guide's layout, but built after leaving the scope
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)  # expect: TFS005
manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)

for _ in range(10):
    ckpt.step.assign_add(1)
    if int(ckpt.step) % 5 == 0:
        print("saved", manager.save())
