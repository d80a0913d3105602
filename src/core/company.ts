/** Company config: used wherever contact details appear. */

export const PRODUCT_NAME = "Image Query AI"

export interface EmailContact {
  email: string
}

export interface PhoneContact {
  phone: string
}

export const COMPANY = {
  displayName: PRODUCT_NAME,
  legalName: "Image Query AI Private Limited",
  description:
    "Image Query AI finds the images on any web page and analyses them: text extraction, face and object detection on your device, and answers to your questions from a vision model.",
  tagline: "See more in every image on the web.",
  contact: {
    support: { email: "support@imagequery.ai" } as EmailContact,
    sales: { email: "sales@imagequery.ai" } as EmailContact,
    legal: { email: "legal@imagequery.ai" } as EmailContact,
    privacy: { email: "privacy@imagequery.ai" } as EmailContact,
    noreply: { email: "noreply@imagequery.ai" } as EmailContact,
    admin: { email: "admin@imagequery.ai" } as EmailContact,
    phone: { phone: "+91 80 4718 2290" } as PhoneContact,
    address: {
      line1: "3rd Floor, Indiqube Orion, 24th Main Road",
      line2: "HSR Layout Sector 2",
      city: "Bengaluru",
      region: "Karnataka",
      postalCode: "560102",
      country: "India"
    }
  },
  social: {
    x: { handle: "@imagequeryai", url: "https://x.com/imagequeryai" },
    github: { handle: "imagequeryai", url: "https://github.com/imagequeryai" },
    linkedin: { handle: "imagequeryai", url: "https://www.linkedin.com/company/imagequeryai" },
    youtube: { handle: "@imagequeryai", url: "https://www.youtube.com/@imagequeryai" }
  }
} as const

export function formatAddress(address = COMPANY.contact.address): string {
  return [
    address.line1,
    address.line2,
    `${address.city}, ${address.region} ${address.postalCode}`,
    address.country
  ].join(", ")
}
