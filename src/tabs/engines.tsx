// tabs/engines.html: the engine check page, whose UI is src/engine-check/.
import { EnginesPage } from "~engine-check/EnginesPage"

import "~ui/global-styles"
import "~ui/document-language"

export default EnginesPage
