import { SidePanel } from "~panel/SidePanel"

import "~site/styles"

export default SidePanel
