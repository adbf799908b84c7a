import medreg.model.backbone
import medreg.model.network
