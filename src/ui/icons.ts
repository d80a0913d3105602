// Icons are imported one file each: the package's barrel would pull all of lucide into bundles
// whose bundler does not tree-shake it (the extension's).
export { default as ArrowLeft } from "lucide-react/dist/esm/icons/arrow-left.mjs"
export { default as Eye } from "lucide-react/dist/esm/icons/eye.mjs"
export { default as Home } from "lucide-react/dist/esm/icons/house.mjs"
export { default as Image } from "lucide-react/dist/esm/icons/image.mjs"
export { default as Lock } from "lucide-react/dist/esm/icons/lock.mjs"
export { default as Menu } from "lucide-react/dist/esm/icons/menu.mjs"
export { default as MessageSquareText } from "lucide-react/dist/esm/icons/message-square-text.mjs"
export { default as ScanFace } from "lucide-react/dist/esm/icons/scan-face.mjs"
export { default as ScanText } from "lucide-react/dist/esm/icons/scan-text.mjs"
export { default as X } from "lucide-react/dist/esm/icons/x.mjs"
export { default as EyeOff } from "lucide-react/dist/esm/icons/eye-off.mjs"
