import { SidePanel } from "~panel/SidePanel"

import "~site/global-styles"
import "~ui/document-language"

export default SidePanel
