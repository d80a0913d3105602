/**
 * The Terms of Service and the Privacy Policy: static text in sections, each with a title, a
 * paragraph and optional list items. Names, addresses, e-mail addresses, prices and limits come
 * from the shared constants so they never drift.
 */
import { COMPANY, formatAddress } from "~core/company"
import { FEEDBACK_MAX_IMAGE_BYTES, FEEDBACK_MAX_IMAGES } from "~core/admin/feedback"
import { FREE_TRIAL_DAYS, MONEY_BACK_GUARANTEE_DAYS, SUPPORT_REPLY_HOURS } from "~core/billing/plans"
import { LOGIN_LOCKOUT_DURATION_MS, LOGIN_RATE_LIMIT_ATTEMPTS, PASSWORD_RECENT_HISTORY } from "~core/password-policy/defaults"
import { getPlan } from "~core/billing/plans"
import { SESSION_STORAGE_KEYS } from "~core/user"

export interface LegalSection {
  title: string
  paragraph: string
  items?: string[]
}

export interface LegalDocumentContent {
  title: string
  /** ISO date (YYYY-MM-DD) of the current version. */
  lastUpdated: string
  intro: string
  sections: LegalSection[]
}

export const LEGAL_LAST_UPDATED = "2026-11-22"

const product = COMPANY.displayName
const company = COMPANY.legalName
const address = formatAddress()
const { legal, privacy, support, noreply, phone } = COMPANY.contact
const courts = `${COMPANY.contact.address.city}, ${COMPANY.contact.address.region}`

const free = getPlan("free")
const pro = getPlan("pro")
const enterprise = getPlan("enterprise")
const freeRequests = free.requestLimit.kind === "monthly" ? free.requestLimit.requests : 0
const feedbackImageMegabytes = FEEDBACK_MAX_IMAGE_BYTES / (1024 * 1024)
const lockoutMinutes = LOGIN_LOCKOUT_DURATION_MS / 60_000

export const TERMS_OF_SERVICE: LegalDocumentContent = {
  title: "Terms of Service",
  lastUpdated: LEGAL_LAST_UPDATED,
  intro: `These Terms of Service ("Terms") are an agreement between you and ${company} ("${product}", "we", "us"), a company registered in India with its office at ${address}. They cover the ${product} browser extension, the ${product} website and the API the extension uses (together, the "service"). Please read them carefully: they explain what you may and may not do with the service, what we promise and what we do not, and they include limits on our liability and a choice of Indian law.`,
  sections: [
    {
      title: "Acceptance of these Terms",
      paragraph: `By creating an account, installing the extension or otherwise using the service, you agree to these Terms and to our Privacy Policy, which explains how we handle personal data. If you use the service on behalf of an organisation, you confirm that you are allowed to accept these Terms for it, and "you" then includes that organisation. If you do not agree, please do not use the service.`,
      items: [
        "You must be at least 13 years old to use the service.",
        "If you are under 18, or under the age of majority where you live, a parent or legal guardian must agree to these Terms on your behalf and supervise your use.",
        "You must not be barred from using the service under the laws of India or of the country where you live."
      ]
    },
    {
      title: "The service",
      paragraph: `${product} finds the images on the web page you are viewing and helps you understand them. Most of the analysis happens on your own device; only questions you ask about an image go to a remote AI model.`,
      items: [
        `Image detection: the extension lists the images of the page you are on when you open it, or analyses a single image you choose with the "Analyse image" item of the browser's right-click menu.`,
        "Text extraction (OCR), face detection and object detection run locally in your browser, using models that ship inside the extension. The images they read are not uploaded to us.",
        "Face detection finds where faces appear in an image. It does not tell you who a person is.",
        "Questions about an image: when you ask a question, the image and your question are sent through our API to a third-party vision model, which writes the answer. Each question counts as one AI request under your plan.",
        "The website lets you manage your account and plan, and send us feedback."
      ]
    },
    {
      title: "Accounts and verification",
      paragraph: "You need an account to ask questions about images and to use a paid plan. You can sign up with an e-mail address and a password, or with Google sign-in. We verify every e-mail address before its first sign-in.",
      items: [
        "Give accurate information and keep your e-mail address up to date: we send account and security messages there.",
        "Keep your password secret and do not share your account. An account is for one person; Enterprise customers can ask us for team accounts.",
        `You are responsible for activity under your account. If you think someone else has used it, change your password and tell us at once at ${support.email}.`,
        "When you sign in to the extension through the website, the extension shares your session; signing out of the website also signs out the extension.",
        "We may refuse a sign-up, or ask you to verify your e-mail address again, if we see signs of fraud or abuse."
      ]
    },
    {
      title: "Acceptable use",
      paragraph: "Use the service lawfully and with respect for other people, their images and their privacy. In particular, you must not:",
      items: [
        "analyse, copy or republish images that you have no right to use, or use the service to scrape other people's images, text or personal data in breach of their rights or of a website's terms;",
        "use face detection or the vision model to identify, recognise, track, profile or monitor people without their consent, or to guess sensitive traits such as health, religion, ethnicity, political views or sexual orientation;",
        "submit or ask about child sexual abuse material, or any image or content that is illegal in India or where you are;",
        "use the service to harass, threaten, defame, discriminate against or deceive anyone, or as part of a surveillance product;",
        "try to break, probe or get around our security, authentication, rate limits or plan quotas, for example by opening several Free accounts or sharing one paid account;",
        "reverse engineer, decompile or modify the extension or the API, except to the extent the law allows despite this restriction;",
        "overload or disrupt our systems, upload malware, or use bots or scripts to create accounts or send requests beyond your plan's documented API access;",
        "ask the vision model to produce content that is illegal or that breaks the usage rules of the model provider;",
        "resell, rent or sublicense the service without a written agreement with us."
      ]
    },
    {
      title: "Plans, quotas and the free trial",
      paragraph: `The ${free.name} plan includes up to ${freeRequests} AI requests (questions about images) per month. ${pro.name} costs US$${pro.price} per month or US$${pro.annualPrice} per year and has unlimited AI requests, API access and priority support. ${enterprise.name} costs US$${enterprise.price} per month or US$${enterprise.annualPrice} per year and has request limits agreed for your account, team management, white-label options, a service level agreement and dedicated support. Local text extraction, face detection and object detection do not count against any quota.`,
      items: [
        "Unused requests do not carry over to the next month. When you reach your monthly quota, further questions are refused until the next month or until you upgrade.",
        "\"Unlimited\" means no monthly cap for normal use by one person. We may apply reasonable rate limits to protect the service for everyone, and the acceptable use rules still apply.",
        `You can try a paid plan free for ${FREE_TRIAL_DAYS} days. Until online checkout opens, no card is needed to start a trial; once it opens, a trial starts through checkout with a card, nothing is charged before the trial ends, and you can cancel before it does. One trial is allowed per person or organisation: per e-mail mailbox (an address with a "+" tag is the same mailbox), sign-in account and card. If you do not subscribe before the trial ends, your account returns to the ${free.name} plan and nothing is charged.`,
        `${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee: if you are not happy with a paid plan, ask for a refund within ${MONEY_BACK_GUARANTEE_DAYS} days of your first payment for it and we will refund that payment in full.`,
        "An upgrade takes effect straight away. A downgrade takes effect at the end of the period you have already paid for."
      ]
    },
    {
      title: "Payments, renewals and refunds",
      paragraph: "Paid plans are billed in US dollars, in advance, monthly or yearly, through our card payment processor. Online checkout is not open yet: until it is, no payment is taken through the website and nothing entered on the payment page is charged. Once it opens, the following applies.",
      items: [
        "The payment processor handles your card details. We do not store your full card number or security code.",
        "Subscriptions renew automatically at the end of each billing period at the price then in force, until you cancel.",
        `You can cancel at any time by writing to ${support.email}. You keep your paid plan until the end of the period you have paid for, and your account then returns to the ${free.name} plan.`,
        "Prices do not include taxes. Where the law requires, we add taxes such as Indian GST to your invoice.",
        "We will tell you about a price change by e-mail at least 30 days before it applies to your next renewal, so you can cancel first.",
        `Apart from the ${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee, or where the law requires otherwise, payments are not refunded for partly used periods.`,
        `If a renewal payment fails, we may move your account to the ${free.name} plan until the payment succeeds.`
      ]
    },
    {
      title: "AI output and its limitations",
      paragraph: "Answers to your questions, extracted text and detected faces and objects are produced automatically by machine-learning models. They can be wrong, incomplete or biased, even when they sound confident.",
      items: [
        "Check anything important yourself before you rely on it.",
        "Output is not professional advice, whether medical, legal, financial, safety or otherwise.",
        "Do not use output as the only basis for decisions about people, such as decisions on hiring, credit, housing, insurance, education or law enforcement.",
        "Text extraction can misread characters, especially in small, stylised or handwritten text, and the detection models can miss or mislabel faces and objects.",
        "The same question can get different answers, and answers may change when the vision model is updated or replaced.",
        "You are responsible for how you use output, including making sure that anything you publish does not infringe anyone's rights or defame anyone."
      ]
    },
    {
      title: "Your content and feedback",
      paragraph: "You keep whatever rights you have in the images you analyse, the questions you ask, the answers you receive and the feedback you send. We do not claim ownership of any of them.",
      items: [
        "Images analysed locally stay on your device.",
        "When you ask a question about an image, you allow us and our vision model provider to process that image and question only to produce your answer.",
        `Our feedback form accepts a message, your e-mail address and up to ${FEEDBACK_MAX_IMAGES} images of up to ${feedbackImageMegabytes} MB each. We store them on our servers so our team can read them and reply to you by e-mail.`,
        "Please do not put other people's personal data, passwords or other secrets in feedback messages or screenshots.",
        "If your feedback contains a suggestion, we may use it to improve the service without paying you or owing you anything. We will not publish your feedback, your images or your name without your permission.",
        "You confirm that you have the right to share whatever you send us."
      ]
    },
    {
      title: "Our intellectual property",
      paragraph: `The extension, the website, the API, their design and documentation, and the ${product} name and logo belong to us or our licensors and are protected by law. We give you a personal, non-exclusive, non-transferable licence, which we may end under these Terms, to install and use the extension and the website for your own use or your organisation's, within your plan.`,
      items: [
        "Do not remove copyright or other notices, or use our name or logo without our written permission.",
        "Open-source components and models included in the extension are licensed under their own licences, which apply to those components.",
        "The images on the websites you visit belong to their owners. Using the service does not give you, or us, any rights in them."
      ]
    },
    {
      title: "Third-party sites and providers",
      paragraph: "The service works on web pages run by others and relies on a few outside providers. We choose them carefully and are responsible for what we share with them, as our Privacy Policy explains, but we do not control their services and are not responsible for them.",
      items: [
        "Websites: we do not control the websites you visit, their content or their terms. Their terms may limit what you may do with their images.",
        "Vision model provider: answers to your questions come from a third-party AI model provider. We may change provider to keep the service reliable.",
        "Google sign-in: if you sign in with Google, Google's terms also apply to your Google account.",
        "Payments: the card payment processor's terms apply to your payment.",
        "Chrome Web Store: installing and updating the extension is subject to the terms of the Chrome Web Store."
      ]
    },
    {
      title: "Termination and account deletion",
      paragraph: "You can stop using the service at any time. You can delete your account yourself from your dashboard: type your e-mail address to confirm, and we delete the account and sign you out.",
      items: [
        "Deleting your account ends any paid subscription. Refunds follow the money-back guarantee and the rules under \"Payments, renewals and refunds\". Our Privacy Policy explains what we delete and what we must keep for a time.",
        "Uninstalling the extension removes its data from your browser but does not delete your account.",
        "We may suspend or close your account, or refuse requests, if you seriously or repeatedly break these Terms, if the law requires it, or to protect the service, other users or the public.",
        "Unless the law or safety prevents it, we will tell you why and, where reasonable, give you a chance to respond first.",
        "If we close a paid account when you have not broken these Terms, or stop offering the service, we will give you at least 30 days' notice where we can and refund the unused part of any prepaid period.",
        "Sections that by their nature should continue after your account ends, such as those on intellectual property, disclaimers, liability and governing law, continue to apply."
      ]
    },
    {
      title: "Disclaimers",
      paragraph: "We work hard to keep the service useful, secure and available, but we provide it \"as is\" and \"as available\". To the extent the law allows, we make no promises beyond those written in these Terms, including implied promises that the service is fit for a particular purpose, error-free, uninterrupted or free from harmful components.",
      items: [
        "We do not promise that every image on a page will be found. Images drawn by scripts, set as page backgrounds or inside protected frames may be missed.",
        "The service may be unavailable during maintenance, during outages of our providers, or because of your browser or network.",
        "Nothing in these Terms takes away rights that you have as a consumer and that cannot be limited by contract, for example under India's Consumer Protection Act, 2019, or the consumer laws of the country where you live."
      ]
    },
    {
      title: "Limitation of liability",
      paragraph: "To the extent the law allows:",
      items: [
        "We are not liable for indirect, incidental, special or consequential losses, or for loss of profits, revenue, data or goodwill, arising from the service or these Terms.",
        "Our total liability for all claims about the service is limited to the greater of the amount you paid us for the service in the 12 months before the event that gave rise to the claim and US$100.",
        "These limits do not apply to liability that cannot be limited by law, such as liability for fraud, for death or personal injury caused by negligence, or for wilful misconduct.",
        "You will compensate us for claims by others, and the reasonable costs of defending them, to the extent they arise from your breach of these Terms or your misuse of images or personal data."
      ]
    },
    {
      title: "Governing law and disputes",
      paragraph: `These Terms are governed by the laws of India. Subject to the rights below, the courts at ${courts} have exclusive jurisdiction over disputes about the service or these Terms.`,
      items: [
        `Before starting a formal dispute, please write to us at ${legal.email}. We will try in good faith to resolve the matter within 30 days.`,
        "If you are a consumer in India, you may also bring a complaint before the consumer commission with jurisdiction where you live, under the Consumer Protection Act, 2019.",
        "If you are a consumer living outside India, you keep the protection of the mandatory laws of your country and may also bring proceedings in its courts where those laws allow it."
      ]
    },
    {
      title: "Changes and general terms",
      paragraph: "We improve the service over time and may add, change or remove features. We may also update these Terms. The \"Last updated\" date at the top shows the current version.",
      items: [
        "For changes that matter to you, we will tell you by e-mail or in the product at least 30 days before they take effect, unless a change is needed sooner for legal or security reasons.",
        "If you do not agree to a change, stop using the service and delete your account before the change takes effect. If you keep using the service after that, the new Terms apply.",
        "If a court finds part of these Terms unenforceable, the rest stays in force. If we do not enforce a right straight away, we do not give it up.",
        "We may transfer these Terms to a company that takes over the service, and we will tell you if we do. You may not transfer them without our written consent.",
        "These Terms, our Privacy Policy and any order form you sign with us are the whole agreement between you and us about the service."
      ]
    },
    {
      title: "Contact us",
      paragraph: `${company} runs the service. We are happy to answer questions about these Terms. Support requests get a reply within ${SUPPORT_REPLY_HOURS} hours on working days.`,
      items: [
        `Legal questions and notices: ${legal.email}`,
        `Help with your account or the extension: ${support.email}`,
        `Privacy and personal data: ${privacy.email}`,
        `Phone: ${phone.phone}`,
        `Post: ${company}, ${address}`
      ]
    }
  ]
}

export const PRIVACY_POLICY: LegalDocumentContent = {
  title: "Privacy Policy",
  lastUpdated: LEGAL_LAST_UPDATED,
  intro: `This Privacy Policy explains what personal data ${company} collects when you use ${product} (the browser extension, the website and our API), why we collect it, who we share it with, and what rights you have. In short: images you analyse on your device stay on your device; an image leaves your browser only when you ask a question about it; we do not sell personal data; and we use no advertising cookies and no third-party analytics.`,
  sections: [
    {
      title: "Who we are",
      paragraph: `${company}, ${address}, decides how and why your personal data is processed. We are its "data fiduciary" under India's Digital Personal Data Protection Act, 2023 (the "DPDP Act") and its "controller" under the EU General Data Protection Regulation (the "GDPR").`,
      items: [
        `Privacy questions and requests: ${privacy.email}`,
        `Grievance Officer: reachable at ${privacy.email}`,
        `Phone: ${phone.phone}`
      ]
    },
    {
      title: "What we collect",
      paragraph: "We collect only what we need to run your account and the service:",
      items: [
        "Account data: your name, e-mail address, password (stored only as a hash), whether your e-mail address is verified, your sign-in method, your role, your plan and subscription status, and when you accepted our Terms and this policy.",
        "Google sign-in: if you sign in with Google, Google gives us your name, e-mail address and Google account identifier.",
        `Sign-in and security data: your active sessions (whether on the website or in the extension, when each started, was last used and expires), hashes of refresh tokens and of verification and reset codes, counts of failed sign-ins for each e-mail address, hashes of your last ${PASSWORD_RECENT_HISTORY} passwords so they cannot be reused, and which password rules a refused password broke (never the password itself).`,
        "Usage counts: how many AI requests (questions about images) your account makes each month, so we can apply your plan's quota. We count requests; we do not keep their content.",
        `Feedback: the e-mail address you give, your message, up to ${FEEDBACK_MAX_IMAGES} images you attach, its status, and our replies with the e-mail address of the team member who replied.`,
        "Payment data, once paid checkout opens: your plan and billing period, billing e-mail, cardholder name, billing address and country. The payment processor handles your card number; we receive only a payment reference.",
        "Technical logs: IP address, time, the API address requested, the response status, your browser's user agent and error details.",
        "Anything you choose to tell us when you write to us by e-mail."
      ]
    },
    {
      title: "What we do not collect",
      paragraph: `${product} is built so that most of your analysis never reaches us.`,
      items: [
        "Images you analyse locally, for text extraction (OCR), face detection or object detection, are processed by models inside the extension and never leave your browser.",
        "An image leaves your browser only when you ask a question about it. It then goes, with your question, through our API to the vision model provider. We do not keep the image, the question or the answer after the answer has been returned to you.",
        "We do not collect your browsing history. The extension reads the images of a page only when you open it on that page or choose \"Analyse image\", and it does not send us the addresses of the pages you visit.",
        "We do not create or keep face templates or any other biometric identifiers. Face detection only finds where faces are in an image.",
        "We do not use advertising identifiers, advertising cookies, third-party analytics or tracking scripts.",
        "We do not store full card numbers or card security codes."
      ]
    },
    {
      title: "How we use your data",
      paragraph: "We use personal data only for the following purposes:",
      items: [
        "to create and run your account, sign you in on the website and in the extension, and keep your sessions secure;",
        "to answer your questions about images through the vision model and count them against your plan's quota;",
        "to manage your plan, trial, payments and refunds;",
        "to read and reply to your feedback and fix the problems you report;",
        "to send you the service e-mails described below;",
        "to protect the service and its users: to detect abuse, enforce rate limits and quotas, lock accounts after repeated failed sign-ins, and investigate security incidents;",
        "to meet our legal obligations, such as keeping tax and accounting records and answering lawful requests from authorities."
      ]
    },
    {
      title: "Legal bases",
      paragraph: "Under the DPDP Act, we process personal data with the consent you give when you accept this policy, which you can withdraw at any time, or for a legitimate use that the Act allows, such as complying with the law. If the GDPR applies to you, we rely on the following legal bases:",
      items: [
        "Contract: to provide your account, answer your questions, apply your plan and take payments.",
        "Legitimate interests: to keep the service secure, prevent abuse, keep technical logs and fix faults. We have weighed these interests against your rights, and you can object to them.",
        "Consent: where we ask for it, for example before any marketing e-mail. You can withdraw consent at any time.",
        "Legal obligation: to keep tax and accounting records and to answer lawful requests.",
        `To withdraw consent, write to ${privacy.email} or delete your account. Withdrawal does not affect processing that took place before it, but parts of the service may stop working without the data they need.`
      ]
    },
    {
      title: "The vision model provider and other service providers",
      paragraph: "We share personal data only with providers that help us run the service, and only as much as each one needs. They act on our instructions (as our \"processors\") unless we say otherwise. We do not sell or rent personal data.",
      items: [
        "Vision model provider: when you ask a question, it receives the image and your question and uses them only to produce the answer. Requests go from our servers, so the provider does not receive your name, e-mail address or IP address. We use it under terms that do not allow it to train its models on the data we send; it may keep requests for a short time where its terms require this to detect abuse, and then deletes them.",
        "Hosting and database providers: they run the servers that hold your account data and feedback images.",
        "E-mail delivery provider: it receives your e-mail address and the content of the e-mails we send you.",
        "Card payment processor, once paid checkout opens: it processes your payment and may also act as an independent controller to prevent fraud and meet its own legal duties.",
        "Google: if you use Google sign-in, Google confirms your identity to us. Google's privacy policy covers what Google itself collects.",
        "Authorities: we disclose data when the law requires it, or when it is needed to protect the rights, property or safety of our users, the public or us.",
        "A buyer or successor: if our business is merged or sold, your data may pass to the new owner, who must keep to this policy. We will tell you beforehand."
      ]
    },
    {
      title: "E-mails we send",
      paragraph: `We send e-mails from ${noreply.email} about your account and your requests:`,
      items: [
        "a verification e-mail when you sign up, and a welcome e-mail once your address is verified;",
        "password reset e-mails when you ask for them;",
        "a confirmation when we receive your feedback, and our replies to it;",
        "important notices about your account, security, plan or payments, and about changes to our Terms or this policy.",
        "These e-mails are needed to run the service, so they cannot be turned off while you have an account. We send marketing e-mails only with your consent, and each one has an unsubscribe link."
      ]
    },
    {
      title: "Storage in your browser",
      paragraph: "We use your browser's storage to keep you signed in and to make the extension work. We do not use advertising cookies, and the website and extension load no third-party analytics or tracking scripts. You can remove this data by signing out, by clearing the site data in your browser, or by removing the extension.",
      items: [
        `Website local storage, "${SESSION_STORAGE_KEYS.authToken}": a short-lived signed token that proves you are signed in.`,
        `Website local storage, "${SESSION_STORAGE_KEYS.refreshToken}": a token used to renew your session without asking for your password again.`,
        `Website local storage, "${SESSION_STORAGE_KEYS.user}": a copy of your name, e-mail address, role, sign-in method and plan, used to display your account.`,
        "Extension storage: your extension session when you are signed in to the extension, your settings, and the address of the image you last chose to analyse and of its page. The image address is kept only until you close the browser.",
        "The three website items are removed when you sign out."
      ]
    },
    {
      title: "How long we keep data",
      paragraph: "We keep personal data only as long as we need it for the purposes above:",
      items: [
        "Account data, sessions, password history and usage counts: for as long as your account exists. When you delete your account they are removed from our live database straight away, and from backups within 30 days.",
        "Verification and password reset codes: until they are used or expire. Failed sign-in counts: only as long as needed to apply the sign-in lockout.",
        "Feedback and its images: until we have dealt with it and for up to 12 months after our last reply, unless you ask us to delete it sooner.",
        "Technical logs: up to 30 days, or longer only while we investigate a specific security incident.",
        "Payment and invoice records: as long as tax and accounting law requires, which in India is generally 8 years.",
        "Images and questions sent to the vision model: we do not store them. The provider keeps them only as described above."
      ]
    },
    {
      title: "How we protect your data",
      paragraph: "We protect personal data with technical and organisational measures suited to the risk, including:",
      items: [
        "Passwords are hashed with argon2id, a deliberately slow, memory-hard algorithm. We never store them in readable form.",
        "Refresh tokens, e-mail verification codes and password reset codes are stored only as hashes, so a copy of our database would not contain usable tokens.",
        "Refresh tokens change every time they are used; if an old one is presented again, we treat it as stolen and end that session.",
        `Sign-in tokens expire quickly, and by default an address is locked for ${lockoutMinutes} minutes after ${LOGIN_RATE_LIMIT_ATTEMPTS} failed sign-ins.`,
        "All traffic between your browser, the extension and our servers is encrypted with HTTPS.",
        "Only the staff who need it can see personal data; for example, only administrators can read feedback.",
        "Local analysis runs inside the extension, so those images never reach our servers.",
        "If a breach affects your personal data, we will tell you and the Data Protection Board of India, and, where the GDPR applies, the competent supervisory authority within 72 hours of becoming aware of it.",
        "No system is perfectly secure. Please use a strong password that you do not use anywhere else, and sign out on shared computers."
      ]
    },
    {
      title: "Your rights",
      paragraph: `You have rights over your personal data. To use them, write to ${privacy.email} from the e-mail address of your account. We may ask you to confirm your identity. It is free, and we reply within 30 days.`,
      items: [
        "Access: ask for a summary of the personal data we hold about you and how we use it, and for a copy of it.",
        "Correction: ask us to correct or complete inaccurate or incomplete data, or update it yourself in your account.",
        "Deletion: delete your account yourself from your dashboard (you confirm by typing your e-mail address), or ask us to delete your data.",
        "Withdraw consent at any time, as explained under \"Legal bases\".",
        "Grievance redressal: under the DPDP Act you can raise a grievance with our Grievance Officer at the address above before complaining to the Data Protection Board of India.",
        "Nomination: under the DPDP Act you can nominate a person to exercise your rights if you die or become unable to do so.",
        "If you are in the European Union, the European Economic Area or the United Kingdom, you also have the rights to restrict processing, to object to processing based on legitimate interests, and to data portability. We do not make decisions about you based solely on automated processing that have legal or similarly significant effects.",
        "You can complain to the Data Protection Board of India or, if the GDPR applies, to the data protection authority where you live or work."
      ]
    },
    {
      title: "Children's privacy",
      paragraph: `${product} is not for children under 13, and we do not knowingly collect personal data from children under 13. If we learn that we have, we delete it and close the account.`,
      items: [
        `If you believe a child under 13 has given us personal data, please tell us at ${privacy.email}.`,
        "The DPDP Act requires the verifiable consent of a parent or guardian to process the data of anyone under 18, so users between 13 and 17 may use the service only with that consent.",
        "We do not track children or show them targeted advertising; we show no advertising to anyone."
      ]
    },
    {
      title: "International transfers",
      paragraph: "We are based in India. Our servers and providers, including the vision model provider, may process personal data in India and in other countries, such as the United States.",
      items: [
        "We transfer personal data out of India only as the DPDP Act allows, and not to countries that the Government of India has restricted.",
        "When we transfer personal data from the European Union, the European Economic Area or the United Kingdom to a country without an adequacy decision, we use the European Commission's Standard Contractual Clauses (with the UK addendum where needed) or another lawful safeguard. You can ask us for a copy.",
        "The protections in this policy apply wherever your data is processed."
      ]
    },
    {
      title: "Changes to this policy",
      paragraph: "We update this policy when the service or the law changes. The \"Last updated\" date at the top shows the current version.",
      items: [
        "We will tell you about important changes by e-mail or in the product before they take effect.",
        "If a change needs your consent, we will ask for it again."
      ]
    },
    {
      title: "Contact and grievances",
      paragraph: `For anything about your personal data or this policy, contact ${company}:`,
      items: [
        `Privacy questions, requests and grievances: ${privacy.email}`,
        `Post: Grievance Officer, ${company}, ${address}`,
        `Phone: ${phone.phone}`,
        `Help with your account or the extension: ${support.email}`
      ]
    }
  ]
}
