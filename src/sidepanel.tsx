import { SidePanel } from "~panel/SidePanel"

import "~site/styles"
import "~ui/document-language"

export default SidePanel
