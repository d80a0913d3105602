// The fonts and global CSS of every page (site, popup, side panel, tab pages). Inter is bundled: no remote fonts.
import "@fontsource/inter/400.css"
import "@fontsource/inter/500.css"
import "@fontsource/inter/600.css"
import "@fontsource/inter/700.css"
import "./global.css"
