import tensorflow as tf

from medreg.registry import REGISTRY


@REGISTRY.register_model(name="ddf")
class DDFModel(tf.keras.Model):
    """Predicts a dense displacement field; its losses come from the configuration."""

    def __init__(self, image_size, config, name="DDFModel"):
        super().__init__(name=name)
        self.config = config
        moving = tf.keras.Input(shape=(*image_size, 1), name="moving_image")
        fixed = tf.keras.Input(shape=(*image_size, 1), name="fixed_image")
        backbone = REGISTRY.build_backbone(config=config["backbone"])
        self.ddf = backbone(tf.concat([moving, fixed], axis=4))
        self._model = tf.keras.Model(inputs=[moving, fixed], outputs=self.ddf)
        self.build_loss(fixed, moving)

    def build_loss(self, fixed, moving):
        for name in ("image", "regularization"):
            config = dict(self.config["loss"][name])
            weight = config.pop("weight")
            loss_cls = REGISTRY.build_loss(config=config)
            per_example = loss_cls(y_true=fixed, y_pred=moving)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=self.config["batch_size"])
            self._model.add_loss(loss * weight)

    def call(self, inputs, training=None):
        return self._model(inputs, training=training)
