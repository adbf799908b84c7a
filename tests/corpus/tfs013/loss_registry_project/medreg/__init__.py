import medreg.loss
import medreg.model
