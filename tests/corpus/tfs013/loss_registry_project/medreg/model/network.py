import tensorflow as tf

from medreg.loss.image import SumSquaredDifference
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
            loss = loss_cls(y_true=fixed, y_pred=moving)  # expect: TFS013
            self._model.add_loss(loss * weight)
        # made here: its finding is where its class leaves the reduction, as for any loss made here
        consistency = SumSquaredDifference(name="consistency")
        self._model.add_loss(0.1 * consistency(y_true=fixed, y_pred=self.ddf[..., :1]))

    def call(self, inputs, training=None):
        return self._model(inputs, training=training)
