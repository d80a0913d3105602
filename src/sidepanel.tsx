import { SidePanel } from "~panel/SidePanel"

import "~ui/global-styles"
import "~ui/document-language"

export default SidePanel
