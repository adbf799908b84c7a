# A Swin-style classifier: patches are cut by a custom layer that makes no weight, embedded by
# one that does; the functional graph is wired outside the TPU strategy's scope.
import tensorflow as tf
from tensorflow.keras import layers

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)


class PatchExtract(layers.Layer):
    def __init__(self, patch_size, **kwargs):
        super().__init__(**kwargs)
        self.patch_size = patch_size

    def call(self, images):
        batch_size = tf.shape(images)[0]
        patches = tf.image.extract_patches(
            images=images,
            sizes=(1, self.patch_size, self.patch_size, 1),
            strides=(1, self.patch_size, self.patch_size, 1),
            rates=(1, 1, 1, 1),
            padding="VALID",
        )
        return tf.reshape(patches, (batch_size, -1, patches.shape[-1]))


class PatchEmbedding(layers.Layer):
    def __init__(self, num_patch, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.num_patch = num_patch
        self.proj = layers.Dense(embed_dim)
        self.pos_embed = layers.Embedding(input_dim=num_patch, output_dim=embed_dim)

    def call(self, patch):
        positions = tf.range(start=0, limit=self.num_patch, delta=1)
        return self.proj(patch) + self.pos_embed(positions)


inputs = layers.Input((224, 224, 3))
x = PatchExtract(4)(inputs)
x = PatchEmbedding(56 * 56, 96)(x)  # expect: TFS001
x = layers.GlobalAveragePooling1D()(x)
outputs = layers.Dense(104, activation="softmax")(x)
model = tf.keras.Model(inputs, outputs)

with strategy.scope():
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
