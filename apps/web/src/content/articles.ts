/**
 * Bundled news articles for the public /news pages.
 *
 * Content is static HTML authored in-house. Allowed markup: h2, h3, p, ul, ol, li, strong, em,
 * blockquote, table (thead/tbody/tr/th/td) and links to official sources only. No scripts, inline
 * styles or images. Articles reflect the legal and technical position as of July 2025 and are
 * general information, not legal advice.
 */

export const ARTICLE_CATEGORIES = [
  'Industry Insights',
  'Compliance',
  'Technology',
  'Industry Guides',
  'Privacy & UX',
  'Business Strategy',
] as const;

export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];

export interface Article {
  id: number;
  title: string;
  /** One or two sentences shown on cards and in meta descriptions. */
  excerpt: string;
  /** Sanitised, trusted HTML body. */
  content: string;
  author: string;
  /** One or two sentences for the "About the author" box. */
  authorBio: string;
  /** ISO date, YYYY-MM-DD. */
  date: string;
  readTime: string;
  category: ArticleCategory;
  tags: string[];
  featured?: boolean;
}

interface Author {
  author: string;
  authorBio: string;
}

const AUTHORS = {
  chen: {
    author: 'Dr. Sarah Chen',
    authorBio:
      "Dr. Sarah Chen is Attestly's Head of Research. She holds a PhD in computer vision and leads our work on facial age estimation, presentation attack detection and privacy-enhancing cryptography.",
  },
  whitfield: {
    author: 'James Whitfield',
    authorBio:
      "James Whitfield is Attestly's Head of Regulatory Affairs. A former technology and media lawyer, he tracks the Online Safety Act, Ofcom's codes and UK data protection law on behalf of our customers.",
  },
  laurent: {
    author: 'Camille Laurent',
    authorBio:
      "Camille Laurent is Attestly's European Policy Lead, based in Paris. She follows Arcom, the CNIL and the European Commission's work on the Digital Services Act and the EU Digital Identity Wallet.",
  },
  torres: {
    author: 'Michael Torres',
    authorBio:
      'Michael Torres is US Policy Analyst at Attestly. A former state legislative analyst, he covers federal and state online safety laws and the constitutional litigation that surrounds them.',
  },
  natarajan: {
    author: 'Priya Natarajan',
    authorBio:
      "Priya Natarajan is Attestly's Head of Product Design. She has spent more than a decade designing onboarding journeys for regulated services, with a particular focus on accessibility and conversion.",
  },
  okafor: {
    author: 'Daniel Okafor',
    authorBio:
      "Daniel Okafor is Attestly's Commercial Director. He helps operators model the full cost of compliance and choose deployment options that fit their risk profile, volumes and budget.",
  },
  ellison: {
    author: 'Tom Ellison',
    authorBio:
      'Tom Ellison is a Principal Solutions Architect at Attestly. He works with gaming, retail, dating and financial services teams to integrate age and identity checks into existing platforms.',
  },
} satisfies Record<string, Author>;

export const ARTICLES: Article[] = [
  {
    id: 1,
    title: 'Ofcom\'s "Highly Effective" Age Assurance: What the July 2025 Deadline Means for Your Platform',
    excerpt:
      'From 25 July 2025, user-to-user and search services likely to be accessed by children must apply Ofcom\'s Protection of Children Codes. Here is what "highly effective age assurance" means in practice, which methods qualify, and what to do in the final weeks.',
    ...AUTHORS.whitfield,
    date: '2025-07-08',
    readTime: '10 min read',
    category: 'Compliance',
    tags: ['Online Safety Act', 'Ofcom', 'UK', 'Age assurance', "Children's Codes"],
    featured: true,
    content: `
<p>For most of the two years since the Online Safety Act 2023 received Royal Assent, age assurance in the UK has been a matter of consultations, draft codes and speculation. That period is ending. On <strong>25 July 2025</strong>, the child safety duties for user-to-user and search services take practical effect, and Ofcom has been explicit that it expects services which allow the most harmful content to put "highly effective age assurance" in front of it. This article sets out the timeline, what the standard actually requires, which methods Ofcom accepts, and a realistic plan for the remaining weeks.</p>

<h2>How we got here: the phased timeline</h2>
<p>The Act is enforced by Ofcom in phases, each triggered by the publication of codes of practice and guidance. Three phases matter for age assurance:</p>
<table>
  <thead>
    <tr><th>Date</th><th>Milestone</th><th>Who it affects</th></tr>
  </thead>
  <tbody>
    <tr><td>26 October 2023</td><td>Online Safety Act receives Royal Assent</td><td>Everyone in scope</td></tr>
    <tr><td>16 January 2025</td><td>Ofcom publishes its age assurance guidance and children's access assessment guidance</td><td>All regulated services</td></tr>
    <tr><td>17 January 2025</td><td>Part 5 duties in force: services that publish their own pornographic content must use highly effective age assurance</td><td>Pornography providers</td></tr>
    <tr><td>16 April 2025</td><td>Deadline for children's access assessments</td><td>User-to-user and search services</td></tr>
    <tr><td>24 April 2025</td><td>Protection of Children Codes and children's risk assessment guidance published</td><td>User-to-user and search services</td></tr>
    <tr><td>24 July 2025</td><td>Deadline for completing children's risk assessments</td><td>Services likely to be accessed by children</td></tr>
    <tr><td>25 July 2025</td><td>Children's safety duties enforceable; Codes' measures expected to be in place</td><td>Services likely to be accessed by children</td></tr>
  </tbody>
</table>
<p>Part 5 providers &mdash; sites that publish pornography themselves rather than hosting it from users &mdash; have already been subject to the age assurance duty for six months, and Ofcom opened an enforcement programme for that sector in January. The July deadline extends the expectation to a far larger population: social media, video-sharing platforms, forums, messaging services with public features, gaming platforms with user-generated content, and search engines, wherever they are likely to be accessed by children.</p>

<h2>Who is caught by the 25 July duties?</h2>
<p>The trigger is the children's access assessment. A service is treated as "likely to be accessed by children" if it is possible for children to access it and either a significant number of children use it or it is of a kind likely to attract a significant number of children. Ofcom's guidance is clear that a service can only conclude that children cannot access it if it already uses highly effective age assurance to keep them out. Terms of service that say "18+ only" do not count.</p>
<p>If your assessment concluded that children are likely to access your service, you must complete a children's risk assessment by 24 July and then apply the measures in the Protection of Children Codes, or alternative measures that achieve the same outcomes, from 25 July. Ofcom has said it expects most services not using highly effective age assurance to fall within scope of the children's duties.</p>

<h2>What the Protection of Children Codes require</h2>
<p>The Codes contain more than forty measures covering governance, content moderation, user reporting, terms of service, user support and &mdash; critically &mdash; age assurance and the design of content feeds. Age assurance is the foundation on which many of the other measures rest, because a service cannot give children a safer experience if it does not know which users are children.</p>
<p>The Act distinguishes between categories of harmful content. <strong>Primary priority content</strong> is pornography and content that encourages, promotes or provides instructions for suicide, self-harm or eating disorders. Children must be <em>prevented</em> from encountering it. <strong>Priority content</strong> &mdash; including bullying, abusive or hateful content, content depicting serious violence, and content encouraging dangerous stunts or ingestion of harmful substances &mdash; must be dealt with so that children are <em>protected</em> from encountering it.</p>
<p>In broad terms, the Codes expect the following:</p>
<ul>
  <li><strong>Services whose principal purpose is hosting or disseminating primary priority content</strong> should use highly effective age assurance to stop children accessing the service at all.</li>
  <li><strong>Services that do not prohibit primary priority content</strong> in their terms should use highly effective age assurance to prevent children from encountering it, either at the level of the whole service or for the parts of the service where it may appear.</li>
  <li><strong>Services that prohibit harmful content but are medium or high risk for it</strong> should use highly effective age assurance to identify child users so that protections, such as filtered recommender feeds, can be applied to them.</li>
  <li><strong>Services with recommender systems</strong> that pose a medium or high risk of harmful content should filter primary priority content out of children's feeds and reduce the prominence of priority content.</li>
</ul>
<p>Alongside age assurance, the Codes expect a named person accountable for compliance with the children's safety duties, effective moderation and swift action on harmful content, accessible reporting and complaints tools, and support for children such as the ability to block and mute other users and to decline group chat invitations.</p>

<h2>What "highly effective" actually means</h2>
<p>The Act does not prescribe technology. Instead, Ofcom's guidance sets out four criteria that an age assurance process must meet to be considered highly effective. The process must be:</p>
<ol>
  <li><strong>Technically accurate</strong> &mdash; it correctly determines whether a user is an adult under test conditions. Providers should evaluate accuracy against appropriate metrics and, for estimation methods, use a challenge age so that borderline results are escalated.</li>
  <li><strong>Robust</strong> &mdash; it works in real-world conditions and resists circumvention. That includes liveness detection against photographs, masks and deepfakes, and protection against the simple tricks children actually use.</li>
  <li><strong>Reliable</strong> &mdash; it produces consistent results, with outputs that are reproducible and based on trustworthy evidence. Methods that rely on artificial intelligence should be monitored for drift and tested regularly.</li>
  <li><strong>Fair</strong> &mdash; it avoids or minimises bias and discriminatory outcomes, with particular attention to performance across sex, ethnicity and skin tone.</li>
</ol>
<p>Ofcom also asks providers to consider <strong>accessibility</strong> &mdash; offering more than one method so that adults who cannot use one route are not locked out &mdash; and <strong>interoperability</strong>, meaning the ability to work with other age assurance systems and reusable credentials as the market matures. Neither is a hard gate in the way the four criteria are, but both will inform how Ofcom judges whether a deployment is proportionate.</p>
<blockquote>Highly effective is a property of the whole process, not of a technology. A strong method deployed with a bypassable integration, a permissive retry policy or no liveness check is not highly effective.</blockquote>

<h2>The methods Ofcom considers capable</h2>
<p>Ofcom's guidance lists methods that it considers <em>capable</em> of being highly effective when properly implemented:</p>
<ul>
  <li><strong>Open banking</strong> &mdash; with the user's consent, a regulated provider checks with their bank that the account holder is an adult, without the service seeing transaction data.</li>
  <li><strong>Photo-identification matching</strong> &mdash; the user uploads an identity document, which is checked for authenticity and compared with a live image of their face.</li>
  <li><strong>Facial age estimation</strong> &mdash; software estimates age from a live facial image without identifying the person.</li>
  <li><strong>Mobile network operator age checks</strong> &mdash; the operator confirms whether a number is subject to the default adult-content restriction that UK networks apply until a customer proves they are an adult.</li>
  <li><strong>Credit card checks</strong> &mdash; because UK credit card issuers must verify that applicants are over 18, a validated credit card is a reasonable age signal.</li>
  <li><strong>Digital identity services</strong> &mdash; including digital identity wallets that hold a verified age attribute and share only that attribute.</li>
  <li><strong>Email-based age estimation</strong> &mdash; analysis of the other services with which an email address has been used, such as financial or utility providers, to estimate whether its owner is an adult.</li>
</ul>
<p>The guidance is equally clear about what is <strong>not</strong> capable of being highly effective: self-declaration of age (the "I am over 18" button or a date-of-birth field), online payment methods that do not require the user to be over 18 &mdash; which rules out debit cards &mdash; and general contractual restrictions such as a clause in the terms of service.</p>
<p>The list is not closed. Ofcom expects new techniques to emerge and says a method not on the list can still be highly effective if it meets the four criteria. In practice, however, a service that departs from the list should expect to document its reasoning thoroughly.</p>

<h2>Implementation details that catch teams out</h2>
<p>Our experience from pre-deadline reviews is that the method is rarely the weak point. The integration around it is. Common problems include:</p>
<ul>
  <li><strong>Content leaking before the check.</strong> If harmful material is visible in previews, thumbnails, search results or embedded players before the age check, children can encounter it. The check has to sit in front of the content, not merely in front of the account.</li>
  <li><strong>Client-side gates.</strong> An age check whose result is enforced only in the browser or the app can be bypassed by anyone who can open developer tools. The decision must be enforced server-side and bound to the session or account.</li>
  <li><strong>Unlimited retries.</strong> Facial age estimation with unlimited attempts invites users to try different lighting, make-up or someone else's face. Rate-limit attempts and escalate to a different method after repeated failures.</li>
  <li><strong>No challenge age.</strong> If an estimation method is configured to pass anyone estimated at 18 or above, a meaningful share of 16- and 17-year-olds will pass. A buffer is expected.</li>
  <li><strong>Weak account recovery and sharing.</strong> An adult-verified account that can be handed to a child, or recovered by anyone with access to an email inbox, undermines the check. Consider re-verification triggers on device changes or suspicious activity.</li>
</ul>

<h2>Privacy obligations do not go away</h2>
<p>The Act requires services to have particular regard to the importance of protecting users from breaches of privacy law when they implement safety measures. Ofcom and the Information Commissioner's Office have worked together on age assurance, and the ICO's existing opinion on age assurance and the Children's code remain relevant. In practice that means completing a data protection impact assessment, minimising what you collect, retaining the <em>result</em> of a check rather than the evidence behind it, and being transparent with users about which provider processes their data and for how long.</p>
<p>Part 5 providers are additionally required to keep a written record of the age assurance they use and how they have considered privacy, and to publish a summary in a publicly available statement. Services subject to the children's duties should expect to explain their approach in their terms of service and, if asked, to Ofcom.</p>

<h2>Enforcement: what is at stake</h2>
<p>Ofcom can impose fines of up to <strong>&pound;18 million or 10% of qualifying worldwide revenue</strong>, whichever is greater. In serious cases it can apply to the courts for business disruption measures, which can require payment providers, advertisers and internet service providers to withdraw services from a non-compliant platform. Senior managers can face personal liability for failing to comply with information notices.</p>
<p>Ofcom has repeatedly said that it will prioritise the highest-risk services and that it expects engagement, not perfection, from smaller providers acting in good faith. But it has also shown, through the Part 5 programme, that it is prepared to open formal investigations quickly. Services that reach 25 July with no age assurance and no plan should assume they are in the first wave of scrutiny.</p>

<h2>A practical plan for the final weeks</h2>
<ol>
  <li><strong>Confirm your risk assessment position.</strong> If you have not finished your children's risk assessment, do so now and record the evidence behind each risk level. Your age assurance decisions should flow from it.</li>
  <li><strong>Decide the scope of the gate.</strong> Whole-service gating is simplest to explain but has the highest conversion cost. Feature- or content-level gating is more proportionate for many services but requires robust classification of what sits behind it.</li>
  <li><strong>Offer at least two methods.</strong> A fast, low-friction default such as facial age estimation or an email-based check, with a higher-assurance fallback such as photo-ID matching or a digital identity service for users who fail or prefer not to use the default.</li>
  <li><strong>Set and document thresholds.</strong> Record your challenge age, retry limits, liveness configuration and the evidence from your provider that supports them.</li>
  <li><strong>Handle existing users.</strong> The duties apply to your current user base, not just new sign-ups. Plan a staged re-verification of existing accounts that can access restricted content.</li>
  <li><strong>Test bypass routes.</strong> Ask someone outside the project team to try to reach restricted content without passing the check, across web, mobile and any API.</li>
  <li><strong>Write it down.</strong> Keep a decision log explaining why your approach is highly effective and proportionate. If Ofcom asks, a clear record of reasoned choices is worth far more than a polished policy written after the fact.</li>
</ol>

<h2>Looking beyond July</h2>
<p>The 25 July date is a beginning rather than an end. Ofcom has signalled further consultations on additional measures, and the categorised-services regime will add transparency and user empowerment duties for the largest platforms. Technology will also move: reusable digital identity, on-device estimation and privacy-preserving credentials will make it easier to meet the standard with less friction. Services that build a flexible age assurance layer now, rather than hard-wiring a single vendor or method, will find those improvements far easier to adopt.</p>
<p>The legislation and Ofcom's codes are available from <a href="https://www.legislation.gov.uk/ukpga/2023/50/contents" rel="noopener noreferrer">legislation.gov.uk</a> and <a href="https://www.ofcom.org.uk/online-safety" rel="noopener noreferrer">Ofcom's online safety pages</a>. As ever, this article is general information and not legal advice; take specific advice on your own service's obligations.</p>
`,
  },
  {
    id: 2,
    title: 'Seven Routes to "Highly Effective": Comparing the Age Assurance Methods Ofcom Lists',
    excerpt:
      "Open banking, photo-ID matching, facial age estimation, mobile operator checks, credit cards, digital identity and email-based estimation all appear on Ofcom's list. They differ sharply in friction, coverage and privacy. A side-by-side guide for product and engineering teams.",
    ...AUTHORS.ellison,
    date: '2025-07-09',
    readTime: '7 min read',
    category: 'Technology',
    tags: ['Age assurance methods', 'Ofcom', 'Open banking', 'Facial age estimation', 'Digital identity'],
    content: `
<p>Ofcom's guidance on highly effective age assurance names seven kinds of method that it considers capable of meeting the standard. "Capable" is doing a lot of work in that sentence: each method can be implemented well or badly, and each leaves a different group of adults without an easy route through. Choosing a method is therefore less about picking a winner than about assembling a combination that covers your audience with acceptable friction. This guide compares the seven from an implementer's point of view.</p>

<h2>1. Facial age estimation</h2>
<p><strong>How it works.</strong> The user takes a short selfie, or a brief video, on their phone or webcam. A liveness check confirms that a real person is present, and a model estimates their age from facial features. The output is an estimated age or a pass/fail against a configured threshold. The image does not need to be matched against any record, and in well-designed systems it is deleted immediately after processing.</p>
<p><strong>Strengths.</strong> It is fast &mdash; typically a few seconds &mdash; requires no documents, works for adults who have no credit history or identity documents, and reveals nothing about identity. It is often the lowest-friction option for adults who are clearly above the threshold.</p>
<p><strong>Weaknesses.</strong> Estimation has an error margin, which is why a challenge age is needed: users estimated close to 18 are sent to another method. Younger adults therefore see more friction. Performance depends on camera quality and lighting, and it must be paired with robust presentation attack detection.</p>

<h2>2. Photo-identification matching</h2>
<p><strong>How it works.</strong> The user photographs a passport, driving licence or national identity card. The system reads the document, checks security features for signs of tampering, extracts the date of birth and compares the portrait with a live selfie. Where the device supports it, reading the chip in an electronic passport or identity card via NFC provides cryptographic assurance that the data was issued by the relevant authority.</p>
<p><strong>Strengths.</strong> High assurance and broad international coverage. It also produces a definitive date of birth, so it works for any age threshold.</p>
<p><strong>Weaknesses.</strong> It is the highest-friction method, with the most capture failures (glare, blur, cropped edges) and the most sensitive data. Users are understandably more cautious about uploading a passport to a website they do not know well. It excludes adults without photo ID, and document fraud detection must be kept up to date.</p>

<h2>3. Open banking</h2>
<p><strong>How it works.</strong> The user selects their bank and is redirected to its own app or website to authenticate and consent to share limited account information with a regulated account information service provider. The provider confirms that the account holder is over 18 &mdash; banks hold verified dates of birth from their own know-your-customer checks &mdash; and passes only the age result to the service.</p>
<p><strong>Strengths.</strong> It leverages checks the bank has already done to a high standard. Users authenticate in an environment they trust, and no document images are involved. It works well on mobile, where the banking app handles authentication.</p>
<p><strong>Weaknesses.</strong> Coverage is limited to people with accounts at participating banks, and some users are wary of anything that looks like giving a website access to their bank. Young people can hold bank accounts, so the implementation must confirm age, not merely account ownership. Outside the UK and parts of the EU, coverage is uneven.</p>

<h2>4. Credit card checks</h2>
<p><strong>How it works.</strong> The user enters credit card details, and the service or its provider validates the card with the issuer, typically with a zero-value or small, refunded authorisation. Because UK credit card issuers must verify that applicants are adults, a valid credit card is treated as an age signal.</p>
<p><strong>Strengths.</strong> It is familiar, quick, and easy to integrate for services that already take payments.</p>
<p><strong>Weaknesses.</strong> It must be a <em>credit</em> card: debit and prepaid cards can be issued to under-18s, which is why Ofcom excludes payment methods that do not require the holder to be an adult. Implementations must reliably distinguish card types. The check proves that somebody has an adult's card, not that the person using it is that adult, so cards borrowed from a parent remain a risk. Strong customer authentication helps. Many adults, particularly younger ones, do not hold a credit card.</p>

<h2>5. Mobile network operator checks</h2>
<p><strong>How it works.</strong> UK mobile networks apply content restriction filters to accounts by default and lift them only when the account holder proves they are an adult. An age check provider can query, with the user's consent, whether the number is subject to that restriction, usually confirmed by a one-time code or a silent network authentication.</p>
<p><strong>Strengths.</strong> Very low friction: the user enters or confirms a phone number. It draws on the operators' existing processes and needs no documents or images.</p>
<p><strong>Weaknesses.</strong> A number can belong to a contract held by a parent and used by a child, and prepaid numbers may have been verified in different ways. Coverage depends on operator participation, and the approach does not translate directly to markets without comparable default filtering.</p>

<h2>6. Digital identity services</h2>
<p><strong>How it works.</strong> The user has already verified their identity with a digital identity provider &mdash; an app, a wallet or an account &mdash; which holds a verified date of birth or an "over 18" attribute. When asked, the user approves sharing only the age attribute with the service.</p>
<p><strong>Strengths.</strong> Once a user has a digital identity, re-use is quick and data-minimising, and the strongest implementations share a yes/no answer rather than a date of birth. In the UK, providers certified against the government's digital identity and attributes trust framework offer an independent indication of quality.</p>
<p><strong>Weaknesses.</strong> Adoption is still growing, so on its own it will not cover most of your audience for some time. Where the user does not already have a digital identity, creating one usually involves a document check, so the first journey is no easier than photo-ID matching.</p>

<h2>7. Email-based age estimation</h2>
<p><strong>How it works.</strong> The user provides an email address. A provider analyses signals about where that address has been used &mdash; for example, whether it is associated with mortgage lenders, utility providers or other services that typically serve adults &mdash; and estimates whether its owner is an adult. It is usually combined with a confirmation step to prove the user controls the address.</p>
<p><strong>Strengths.</strong> It is almost frictionless and requires no images or documents. It suits low-intensity journeys and works well as a first step in a cascade.</p>
<p><strong>Weaknesses.</strong> Coverage is limited for young adults and for addresses with little history, and the underlying data sources raise transparency questions that you need to address in your privacy information. Users with a new or privacy-focused email address will need another route.</p>

<h2>The comparison at a glance</h2>
<table>
  <thead>
    <tr><th>Method</th><th>User effort</th><th>Data shared with provider</th><th>Main coverage gap</th></tr>
  </thead>
  <tbody>
    <tr><td>Facial age estimation</td><td>Low</td><td>Live facial image (transient)</td><td>Young adults near the challenge age</td></tr>
    <tr><td>Photo-ID matching</td><td>High</td><td>Document image and selfie</td><td>Adults without photo ID</td></tr>
    <tr><td>Open banking</td><td>Medium</td><td>Bank-verified age result</td><td>Non-participating banks; wary users</td></tr>
    <tr><td>Credit card check</td><td>Low</td><td>Card details</td><td>Adults without a credit card</td></tr>
    <tr><td>Mobile operator check</td><td>Low</td><td>Phone number</td><td>Numbers on parent-held contracts</td></tr>
    <tr><td>Digital identity</td><td>Low once set up</td><td>Age attribute only</td><td>Users without a digital identity yet</td></tr>
    <tr><td>Email-based estimation</td><td>Very low</td><td>Email address</td><td>New or little-used addresses</td></tr>
  </tbody>
</table>

<h2>Designing a cascade</h2>
<p>No single method covers everyone, so most services that take conversion seriously build a cascade or offer a choice. Two patterns work well.</p>
<h3>The waterfall</h3>
<p>Start with the least intrusive method likely to succeed, and step up only if it fails. A common sequence is email-based estimation or a mobile operator check, then facial age estimation, then photo-ID matching. Most adults finish at the first or second step; only those who cannot be confirmed see the heaviest check. The risk is that users who fail early steps feel they are being repeatedly asked to prove themselves, so explain clearly why another step is needed.</p>
<h3>The menu</h3>
<p>Present two or three options and let the user choose. Users who are uncomfortable with a camera can use their bank; users without a credit card can take a selfie. Choice increases trust and supports accessibility, which Ofcom specifically asks providers to consider. The cost is a slightly busier screen and the need to maintain several integrations.</p>

<h2>Questions to ask any provider</h2>
<ul>
  <li>What evidence supports the method's accuracy at our threshold, and on what population was it measured?</li>
  <li>Which presentation attacks and injection attacks has the liveness component been independently tested against?</li>
  <li>Exactly what data leaves the user's device, who processes it, where and for how long?</li>
  <li>What does the service receive: a date of birth, an age band or only a pass/fail result?</li>
  <li>How are retries, failures and fallbacks handled, and can we configure them?</li>
  <li>Can the result be re-used safely across sessions without creating a tracking identifier?</li>
</ul>

<h2>The takeaway</h2>
<p>Every method on Ofcom's list can be highly effective, and every one can be implemented in a way that is not. Pick a combination that matches your audience &mdash; a young adult gaming audience and a middle-aged wine-buying audience need different defaults &mdash; enforce the result server-side, and measure both pass rates and drop-off by method. Then revisit the mix regularly: reusable digital identity is likely to become a much larger part of the picture over the next two years.</p>
`,
  },
  {
    id: 3,
    title: 'France\'s SREN Law and Arcom\'s Référentiel: A Practical Guide to "Double Anonymat"',
    excerpt:
      'The loi SREN of 21 May 2024 gave Arcom the power to set binding technical standards for age verification on pornographic sites and to sanction and block those that ignore them. We explain the référentiel, the double-anonymity requirement and where enforcement stands in July 2025.',
    ...AUTHORS.laurent,
    date: '2025-07-10',
    readTime: '7 min read',
    category: 'Compliance',
    tags: ['France', 'SREN', 'Arcom', 'Double anonymat', 'Adult content'],
    content: `
<p>France has prohibited making pornographic content accessible to minors for decades, but enforcement has been slow. Article 227-24 of the Penal Code has long made it an offence to distribute such content where minors may see it, and a 2020 amendment made clear that a simple declaration by the user that they are over 18 is not enough. What France lacked was an efficient way to act against sites that ignored the rule: Arcom, the audiovisual and digital regulator, had to go through the courts, and proceedings dragged on for years. The <strong>loi n° 2024-449 du 21 mai 2024 visant à sécuriser et à réguler l'espace numérique</strong>, known as the SREN law, changed that.</p>

<h2>What the SREN law changed</h2>
<p>The SREN law is a broad statute covering everything from cloud competition to online scams, but its first articles are about protecting minors from pornography. In summary, it:</p>
<ul>
  <li>empowers <strong>Arcom to adopt a référentiel</strong> &mdash; a binding technical standard &mdash; setting the minimum requirements that age verification systems used by pornographic services must meet, after an opinion from the CNIL, the French data protection authority;</li>
  <li>allows Arcom to issue formal notices (<em>mises en demeure</em>) to non-compliant services and to impose <strong>financial penalties</strong> calculated by reference to worldwide turnover, with higher ceilings for repeat failures;</li>
  <li>allows Arcom to order internet service providers to <strong>block</strong> non-compliant sites and search engines to <strong>delist</strong> them, administratively rather than via a lengthy court procedure, subject to judicial review;</li>
  <li>provides for the rules to apply to services established in other EU member states only where they are designated by a ministerial order (<em>arrêté</em>), reflecting the country-of-origin principle in the e-Commerce Directive.</li>
</ul>
<p>The text of the law is available on <a href="https://www.legifrance.gouv.fr/" rel="noopener noreferrer">Légifrance</a>, and Arcom publishes the référentiel and its enforcement decisions on <a href="https://www.arcom.fr/" rel="noopener noreferrer">arcom.fr</a>.</p>

<h2>The référentiel of October 2024</h2>
<p>Arcom adopted its référentiel in October 2024 following a public consultation and the CNIL's opinion. It is deliberately technology-neutral: it does not name approved products, but sets out requirements in two families &mdash; reliability and privacy &mdash; that any solution must satisfy.</p>

<h3>Reliability requirements</h3>
<ul>
  <li>The system must reliably distinguish adults from minors. Solutions based on estimation must be configured so that the rate of minors wrongly accepted is kept as low as possible, which in practice means setting a margin above 18.</li>
  <li>It must resist common circumvention techniques, including photographs, videos, masks and synthetic media. Liveness detection is expected for any method that relies on an image of the user.</li>
  <li>Self-declaration is excluded, as under previous French law.</li>
  <li>Pornographic content must not be visible before the user's age has been verified. A homepage that displays explicit thumbnails behind a closable banner does not comply.</li>
  <li>Verification must be renewed rather than relying on an indefinitely persistent status, so that a device shared within a household does not give a minor permanent access.</li>
</ul>

<h3>Privacy requirements and "double anonymat"</h3>
<p>The most distinctive feature of the French approach is the requirement that sites offer users at least one age verification option meeting a standard of <strong>double anonymity</strong>. The idea, developed in the CNIL's earlier work on age verification, is that:</p>
<ol>
  <li>the <strong>pornographic site</strong> learns that the user is an adult, but not who the user is; and</li>
  <li>the <strong>age verification provider</strong> that knows who the user is &mdash; or has seen their face or document &mdash; does not learn which site they are visiting.</li>
</ol>
<p>In other words, no single party holds the combination "this identified person visits this adult site". That combination is exactly the kind of data whose leak would cause serious harm, and the double-anonymity model ensures it never exists in one place.</p>
<p>Sites may offer other methods alongside the double-anonymity option, provided they respect data protection law and the référentiel's other requirements, but they cannot offer only methods in which a single provider sees both the user's identity and the site visited. Independence matters: where a third party performs the verification, it must be genuinely independent of the site, legally and technically.</p>

<h2>How double anonymity works in practice</h2>
<p>Several architectures can satisfy the requirement. The common pattern uses a token:</p>
<ol>
  <li>The user is sent from the site to an age verification step, without the site passing anything that identifies itself to the verifier &mdash; or via an intermediary that strips that information.</li>
  <li>The verifier checks the user's age using a document, facial estimation or another method, and issues a cryptographic proof that says only "over 18", with no identity information.</li>
  <li>The user presents the proof to the site, which checks the signature and validity and admits the user.</li>
</ol>
<p>Techniques such as blind signatures allow the verifier to sign a token without seeing its final form, so it cannot later recognise the token when it is presented. Wallet-based approaches put the proof on the user's device, so the verifier is never involved in the presentation at all. The CNIL worked with researchers on a proof-of-concept of this kind in 2022, and the European Commission's work on an EU-wide age verification solution follows the same principle.</p>

<h2>The transition for card-based checks</h2>
<p>Recognising that double-anonymity solutions were not yet widespread, Arcom allowed services a short transition period. After an initial period to comply with the référentiel, services could for a further limited time rely on a payment card check, with safeguards, as an interim method. That transition ended in spring 2025. Since then, services have been expected to offer at least one solution meeting the double-anonymity standard.</p>
<p>Payment card checks were always an imperfect fit: French debit cards are available to teenagers, and a card proves access to a card rather than the age of the person using it. Their role as a temporary bridge is a reminder that regulators distinguish between what is tolerable during a transition and what they expect in steady state.</p>

<h2>Enforcement so far</h2>
<p>Enforcement has moved in stages. For services established in France or outside the EU, the référentiel applied directly after the compliance period. For services established in other EU member states, a ministerial order published in early 2025 designated a list of major sites, giving them three months to comply. The deadline fell in June 2025.</p>
<p>The response from the industry has been mixed. Some operators integrated compliant solutions. The operator of several of the most visited sites chose instead to suspend access for French users in June 2025 in protest, arguing that age checks should be performed at the level of the device or operating system rather than by each site. Another operator established in a different member state challenged the designation order, and in June the Paris administrative court suspended it in respect of that operator, pending questions about the compatibility of the regime with EU law. At the time of writing, the government's appeal against that suspension is before the Conseil d'État, and the question of how far member states can impose such obligations on services established elsewhere in the EU remains live. Services in this position should follow the litigation closely, but should not assume that it will remove the obligation altogether: the Digital Services Act itself expects effective age assurance from adult platforms, and the European Commission has its own proceedings under way.</p>

<h2>What operators should do</h2>
<h3>If you run an adult service accessible from France</h3>
<ul>
  <li>Remove all explicit content from pages reachable before verification, including landing pages, previews and search-engine-facing pages.</li>
  <li>Integrate at least one verification option that meets the double-anonymity standard, provided by a party independent of your service, and document why it meets the standard.</li>
  <li>If you offer additional methods, make sure they meet the référentiel's reliability requirements and French and EU data protection law, and present the double-anonymity option at least as prominently as the others.</li>
  <li>Do not store identity data. Retain only what you need to show that a valid proof was presented.</li>
  <li>Plan for re-verification: persistent "verified" cookies that never expire are not consistent with the référentiel.</li>
</ul>
<h3>If you provide age verification technology</h3>
<ul>
  <li>Be able to demonstrate, with evidence, your accuracy, the margin you apply and your resistance to presentation attacks.</li>
  <li>Design your architecture so that you cannot learn which site a user is visiting, including from referrer headers, redirect parameters, timing and IP correlation.</li>
  <li>Be ready to explain your design to the CNIL and to Arcom, and to undergo independent evaluation.</li>
</ul>

<h2>Why France matters beyond France</h2>
<p>The French référentiel is the most developed statement anywhere of what <em>privacy-preserving</em> age verification should look like, and its influence is visible elsewhere. The European Commission's guidelines under Article 28 of the Digital Services Act and its age verification blueprint reflect a similar insistence on data minimisation and unlinkability. The UK's approach is more permissive about single-provider models but asks providers to consider privacy. For operators serving several markets, designing to the French standard from the outset is often the most efficient path: a double-anonymity-capable architecture will satisfy less demanding regimes, whereas the reverse is not true.</p>
<p>This article is general information, not legal advice. The référentiel contains detailed requirements that are not reproduced here; consult the full text and take advice specific to your service.</p>
`,
  },
  {
    id: 4,
    title:
      "After Free Speech Coalition v. Paxton: What the Supreme Court's Ruling Means for US Age Verification Laws",
    excerpt:
      "On 27 June 2025 the US Supreme Court upheld Texas's age verification law for pornographic websites, applying intermediate scrutiny. We unpack the reasoning, what it settles, what it leaves open, and what operators should do now.",
    ...AUTHORS.torres,
    date: '2025-07-08',
    readTime: '7 min read',
    category: 'Industry Insights',
    tags: ['United States', 'Supreme Court', 'Texas', 'HB 1181', 'First Amendment'],
    featured: true,
    content: `
<p>For two decades, the conventional wisdom in American internet law was that online age verification mandates were unconstitutional. The Supreme Court had struck down the Communications Decency Act's indecency provisions in <em>Reno v. ACLU</em> (1997) and upheld a preliminary injunction against the Child Online Protection Act in <em>Ashcroft v. ACLU</em> (2004), reasoning in each case that the laws burdened adults' access to protected speech and that less restrictive alternatives, such as filtering software, were available. On 27 June 2025, in <em>Free Speech Coalition, Inc. v. Paxton</em>, the Court took a markedly different path. By a 6&ndash;3 majority, it held that Texas's age verification law for pornographic websites is subject to intermediate scrutiny, not strict scrutiny, and that it survives that review.</p>

<h2>The law at issue: Texas HB 1181</h2>
<p>Texas enacted House Bill 1181 in 2023. It applies to commercial entities that knowingly and intentionally publish or distribute material on a website, more than one-third of which is sexual material harmful to minors. Such entities must use "reasonable age verification methods" to confirm that users are at least 18. The statute describes those methods as the use of digital identification, government-issued identification, or a commercially reasonable method that relies on public or private transactional data. Verifiers may not retain identifying information about the individual. The Texas Attorney General can seek civil penalties, which increase significantly where a minor actually accesses the material.</p>
<p>The law also originally required sites to display health warnings about pornography. That requirement was held unconstitutional as compelled speech by the Fifth Circuit and was not before the Supreme Court.</p>

<h2>How the case reached the Court</h2>
<p>The Free Speech Coalition, a trade association for the adult industry, and several site operators sued before the law took effect. The district court applied strict scrutiny, relying on <em>Reno</em> and <em>Ashcroft</em>, and preliminarily enjoined the law. The Fifth Circuit reversed on the age verification provisions, reasoning under <em>Ginsberg v. New York</em> (1968) &mdash; which upheld a ban on selling material "obscene as to minors" to children &mdash; that only rational basis review applied. The Supreme Court granted review on the question of which standard applies, heard argument in January 2025 and issued its decision on the last day of June opinions.</p>

<h2>What the majority decided</h2>
<p>Justice Thomas wrote for the majority, joined by the Chief Justice and Justices Alito, Gorsuch, Kavanaugh and Barrett. The core of the reasoning can be summarised in four steps:</p>
<ol>
  <li><strong>Minors have no First Amendment right to access material that is obscene as to them.</strong> States may therefore prohibit distributing such material to minors, as <em>Ginsberg</em> held, and may require age checks to enforce that prohibition &mdash; just as they have long required identification for in-person sales of age-restricted goods.</li>
  <li><strong>Adults do have a right to access such material</strong>, and an age verification requirement burdens that right by adding a step before access. But because the law's aim is to regulate minors' access to unprotected speech, the burden on adults is incidental.</li>
  <li><strong>Incidental burdens on protected speech trigger intermediate scrutiny.</strong> The majority rejected both the rational-basis review applied by the Fifth Circuit, which it considered insufficiently protective of adults, and the strict scrutiny applied by the district court. It distinguished <em>Reno</em> and <em>Ashcroft</em> on the grounds that those cases did not address the question as framed here and involved different statutes.</li>
  <li><strong>HB 1181 survives intermediate scrutiny.</strong> Protecting children from sexual content is an important governmental interest, and requiring age verification by methods of the kind the statute lists is not substantially broader than necessary to achieve it. The Court was not persuaded that content filtering, which depends on parents installing and maintaining it, made the law unnecessary.</li>
</ol>
<p>The majority also noted how much the internet had changed since the late 1990s: the volume and accessibility of pornography, the prevalence of smartphones among children, and the maturity of age verification technology all informed its conclusion that the burden on adults was a reasonable one.</p>

<h2>The dissent</h2>
<p>Justice Kagan, joined by Justices Sotomayor and Jackson, dissented. The dissent accepted that Texas may protect children from sexual material and that age verification may be an acceptable means of doing so. Its disagreement was about the standard of review: because the law directly burdens adults' access to speech that is fully protected for them, the dissent would have applied strict scrutiny and returned the case to the lower courts to decide whether Texas could satisfy it, including by showing that less restrictive means would not work as well. The dissent emphasised the privacy and security concerns adults may have about handing over identity information to access lawful material.</p>

<h2>What the decision settles</h2>
<ul>
  <li><strong>Pornography-focused age verification laws are on firm constitutional ground.</strong> Laws materially similar to HB 1181 &mdash; and more than twenty states have enacted laws along these lines since Louisiana's in 2022 &mdash; are now very likely to survive facial First Amendment challenges.</li>
  <li><strong>The standard is intermediate scrutiny, not rational basis.</strong> States do not have unlimited latitude. A law that imposed burdens substantially greater than necessary &mdash; for example, by mandating intrusive methods, requiring retention of identity data or sweeping in mainstream content &mdash; could still fail.</li>
  <li><strong>Filtering is no longer a trump card.</strong> The argument that parental controls are an adequate less-restrictive alternative, central to <em>Ashcroft</em>, carries much less weight.</li>
</ul>

<h2>What it leaves open</h2>
<p>The decision is narrower than some commentary suggests. It concerns content that is obscene as to minors, a category minors have no right to access. Several important questions remain:</p>
<ul>
  <li><strong>Social media age verification laws.</strong> Laws in Arkansas, Utah, Mississippi and elsewhere require age verification, and often parental consent, for minors to use social media generally. Most of the content on those platforms is fully protected speech for minors as well as adults, so the <em>Ginsberg</em> logic does not straightforwardly apply. <em>Brown v. Entertainment Merchants Association</em> (2011), which struck down California's restrictions on selling violent video games to minors, remains a significant obstacle for those laws.</li>
  <li><strong>The one-third threshold and mixed platforms.</strong> HB 1181 applies only where more than a third of a site's material is harmful to minors. Laws with lower or vaguer thresholds, or that reach general-purpose platforms, may be analysed differently.</li>
  <li><strong>As-applied challenges.</strong> A facial ruling does not prevent challenges to specific enforcement actions or to particular method requirements.</li>
  <li><strong>Privacy and data security.</strong> The Court assumed that the statute's prohibition on retaining identifying information would be respected. Regulators and plaintiffs will watch closely for breaches.</li>
</ul>

<h2>Practical implications for operators</h2>
<h3>Adult content services</h3>
<p>The litigation strategy of blocking entire states while waiting for courts to strike down the laws has lost much of its rationale. Operators that have geo-blocked states with age verification laws now face a straightforward choice: comply or stay out. For those choosing to comply, the state laws vary in the methods they accept, the data retention restrictions they impose and whether they are enforced by the attorney general or through private lawsuits, which can carry significant damages. A verification layer that can be configured per state, and that retains no identity data, is the sensible baseline.</p>
<h3>Platforms with some adult content</h3>
<p>Services hosting a mixture of content should calculate where they sit against each state's threshold and definitions, and consider whether age-gating specific sections or content categories is feasible. The decision does not require general-purpose platforms to verify age, but state legislatures will draw encouragement from it, and bills extending age verification to broader categories are likely.</p>
<h3>Everyone</h3>
<p>The ruling strengthens the political momentum behind age assurance in the US more generally. App store age verification laws in Utah and Texas, state social media laws and federal proposals are all proceeding in an environment in which the Court has endorsed age verification as a normal feature of online life for adult content. Privacy-preserving implementations &mdash; those that confirm age without collecting or retaining identity &mdash; are likely to fare best both in court and with users.</p>

<h2>A note on geography and circumvention</h2>
<p>State-level laws apply to users in the state, which in practice means operators rely on IP geolocation. Virtual private networks make circumvention easy, and several states have debated whether to address that. The Court did not treat the possibility of circumvention as undermining the law's validity, consistent with the general principle that a law need not be perfectly effective to be constitutional. Operators should nonetheless be prepared for states to scrutinise reasonable efforts to identify users' locations, and should keep records of their geolocation approach.</p>

<h2>The bottom line</h2>
<p><em>Free Speech Coalition v. Paxton</em> is the most important US age verification decision in a generation. It moves the United States closer to the UK and France, where age checks for pornography are now a legal requirement, while preserving a meaningful constitutional check on how far states may go. For operators, the practical lesson is clear: the question is no longer whether age verification will be required, but how to do it in a way that is effective, proportionate and respectful of adults' privacy.</p>
<p>The opinion is available from the Supreme Court's website, and each state's statute from its legislature's website. This article is general information, not legal advice.</p>
`,
  },
  {
    id: 5,
    title:
      'From Louisiana Act 440 to Texas HB 1181: Navigating the US State Patchwork of Adult-Content Age Verification Laws',
    excerpt:
      'Since Louisiana led the way in 2022, more than twenty US states have passed laws requiring age verification for websites with substantial adult content. They share a template but differ on thresholds, accepted methods, data rules and who can sue. A compliance map for operators.',
    ...AUTHORS.torres,
    date: '2025-07-11',
    readTime: '6 min read',
    category: 'Compliance',
    tags: ['United States', 'State law', 'Louisiana', 'Utah', 'Virginia', 'Mississippi', 'Adult content'],
    content: `
<p>The United States has no federal age verification requirement for adult websites. What it has instead is a fast-growing patchwork of state laws, most of them enacted since 2023 and many modelled on the same template. After the Supreme Court's June 2025 decision in <em>Free Speech Coalition v. Paxton</em>, which upheld the Texas law under intermediate scrutiny, operators can no longer treat these laws as likely to be struck down. This article maps the common features and the differences that matter for compliance.</p>

<h2>Where it started: Louisiana Act 440</h2>
<p>Louisiana's Act 440 of 2022 was the first of the modern state laws and became the template for many that followed. Effective on 1 January 2023, it makes commercial entities that publish or distribute material harmful to minors on the internet liable if they fail to perform reasonable age verification, where more than a third of the material on the website is harmful to minors. It accepts verification through a digital copy of a driver's licence &mdash; Louisiana already had a state digital wallet, LA Wallet, which made compliance comparatively straightforward &mdash; or through a commercial age verification system using government-issued identification or public or private transactional data.</p>
<p>Crucially, Louisiana relies on <strong>private enforcement</strong>: individuals can sue for damages. The law also prohibits verifiers from retaining identifying information once access has been granted.</p>

<h2>The 2023 wave</h2>
<p>In 2023 a cluster of states followed Louisiana's lead, including:</p>
<ul>
  <li><strong>Utah</strong>, whose law took effect in May 2023. It created civil liability for failure to verify, and prompted one of the largest operators to block Utah users rather than comply.</li>
  <li><strong>Virginia</strong> and <strong>Mississippi</strong>, whose laws took effect on 1 July 2023, again relying on civil liability rather than criminal penalties.</li>
  <li><strong>Arkansas</strong> and <strong>Montana</strong>, with broadly similar frameworks.</li>
  <li><strong>Texas</strong>, whose HB 1181 took a different enforcement route, empowering the Attorney General to seek civil penalties. It was the law tested in the Supreme Court.</li>
</ul>
<p>Since then, the list has expanded rapidly, with states including North Carolina, Indiana, Idaho, Kansas, Kentucky, Nebraska, Oklahoma, South Carolina, South Dakota, Alabama, Tennessee and Florida adopting their own versions, and more laws passed in 2025 taking effect through the year. Counts differ depending on whether one includes laws that have been passed but have not yet taken effect, but by mid-2025 well over twenty states had enacted such legislation.</p>

<h2>The common template</h2>
<p>Most of the laws share five building blocks:</p>
<ol>
  <li><strong>A definition of "material harmful to minors"</strong> adapted from the test the Supreme Court approved in <em>Ginsberg v. New York</em> and the obscenity test in <em>Miller v. California</em>: material that, taken as a whole and with respect to minors, appeals to the prurient interest, is patently offensive and lacks serious value for minors.</li>
  <li><strong>A substantial-portion threshold</strong>, most commonly one-third of the material on the website. This is intended to exclude general-purpose platforms and news sites.</li>
  <li><strong>A list of acceptable methods</strong>: typically digital identification, government-issued identification, or a commercially reasonable method relying on public or private transactional data. Some laws refer specifically to a state-issued digital ID.</li>
  <li><strong>A data retention prohibition</strong>: verifiers and sites may not retain identifying information after verification.</li>
  <li><strong>An enforcement mechanism</strong>: private right of action, attorney general enforcement, or both.</li>
</ol>
<p>Most laws exempt internet service providers, search engines and cloud service providers that do not create the content, and news organisations.</p>

<h2>Where the laws differ</h2>
<table>
  <thead>
    <tr><th>Dimension</th><th>Variations to watch</th><th>Why it matters</th></tr>
  </thead>
  <tbody>
    <tr><td>Enforcement</td><td>Private lawsuits, attorney general penalties, or both</td><td>Private actions create uncertain, potentially large liability; AG enforcement tends to be more predictable</td></tr>
    <tr><td>Threshold</td><td>One-third is common; some laws use different wording or thresholds</td><td>Determines whether mixed-content platforms are in scope</td></tr>
    <tr><td>Accepted methods</td><td>Some name specific methods or state digital IDs; others are open</td><td>Facial age estimation may or may not fit a statute's wording</td></tr>
    <tr><td>Data rules</td><td>Prohibitions on retention; some add requirements on transmission or deletion</td><td>Affects your architecture and vendor contracts</td></tr>
    <tr><td>Additional duties</td><td>Warning labels, re-verification intervals, VPN-related provisions in some proposals</td><td>Adds state-specific UI and logic</td></tr>
  </tbody>
</table>
<p>The method question deserves particular attention. Statutes written in 2022 and 2023 tend to describe verification in terms of identification documents and transactional data. Whether facial age estimation, which estimates rather than verifies age, fits that wording is not always clear, and later statutes have sometimes broadened the language. Where a statute is ambiguous, a conservative operator will offer at least one method that unambiguously fits the statutory list.</p>

<h2>Geolocation: the hidden compliance problem</h2>
<p>State laws apply to users in the state. That means operators must decide, for every visitor, which state's law applies. IP geolocation is the standard approach, but it is imperfect near state borders, on mobile networks whose IP addresses may resolve to a different state, and for users of VPNs and privacy relays. Practical approaches include:</p>
<ul>
  <li>applying the strictest applicable rule when geolocation is uncertain;</li>
  <li>treating traffic from known VPN and anonymising proxy ranges according to your risk appetite, and documenting that choice;</li>
  <li>logging the geolocation decision (not the user's identity) so you can show what rule you applied and why.</li>
</ul>
<p>Many operators conclude that verifying all US users is simpler than maintaining state-by-state logic, particularly as the number of states with laws grows. That is a legitimate business decision, but it carries conversion costs in states that do not require checks.</p>

<h2>Data retention: designing for "verify and forget"</h2>
<p>The near-universal ban on retaining identifying information is good news for users and, properly understood, for operators too. It pushes architectures towards models in which the site receives only an age result, the verifier deletes evidence promptly, and no database linking identities to adult-site visits exists. To comply:</p>
<ul>
  <li>contractually require your verifier to delete images and document data immediately after the check, and verify that they do;</li>
  <li>store only a minimal record: that a check passed, when, by which method and for which session or account;</li>
  <li>avoid logs, analytics events or error reports that inadvertently capture document data or images;</li>
  <li>consider architectures in which the verifier does not learn which site the user is visiting, as France requires.</li>
</ul>

<h2>Private rights of action: the real risk</h2>
<p>Laws enforced through private lawsuits create a distinctive risk profile. Plaintiffs, often parents, can sue for damages and attorney's fees, and some laws specify statutory damages. The exposure is hard to quantify in advance and can accumulate. For operators with significant traffic in private-action states, robust verification and good records are the best defence. A clear audit trail showing that a check was performed, using an accepted method, at the relevant time, without retaining identity data, will matter if a claim arrives.</p>

<h2>A compliance checklist</h2>
<ol>
  <li>Inventory the states with laws in force or taking effect in the next twelve months, and record each law's threshold, methods, data rules and enforcement model.</li>
  <li>Measure your content against each threshold, and document the methodology.</li>
  <li>Decide between state-by-state gating and nationwide verification.</li>
  <li>Choose methods that satisfy the most restrictive statutory wording in your footprint, and offer alternatives for users who cannot use one route.</li>
  <li>Implement "verify and forget": no identity retention at the site or the verifier.</li>
  <li>Keep auditable records of geolocation decisions and verification outcomes.</li>
  <li>Monitor new legislation: state sessions in 2025 have produced further laws, and more are certain in 2026.</li>
</ol>
<p>State statutes are published on each state legislature's website, and should be read in full rather than through summaries. This article is general information, not legal advice.</p>
`,
  },
  {
    id: 6,
    title:
      'Industry Guide: Age Assurance for Social Media Platforms Under the UK Codes, the DSA and US State Laws',
    excerpt:
      "Social media services face the most complex age assurance picture of any sector: Ofcom's children's codes, the EU's new Article 28 guidelines, Australia's under-16 rule and a litigated patchwork of US state laws. A practical guide to building one approach that can flex across all of them.",
    ...AUTHORS.ellison,
    date: '2025-07-15',
    readTime: '6 min read',
    category: 'Industry Guides',
    tags: ['Social media', 'Online Safety Act', 'DSA', 'NetChoice', 'Australia', 'Children'],
    content: `
<p>For most of their history, social media platforms handled age with a date-of-birth field at sign-up and a minimum age of 13 in their terms, driven largely by the US Children's Online Privacy Protection Act. That model is being dismantled on several continents at once. Regulators now expect platforms to know, with reasonable confidence, which of their users are children &mdash; and to give those users a materially different experience. This guide sets out the main regimes and a practical architecture for meeting them.</p>

<h2>The regulatory picture in mid-2025</h2>
<h3>United Kingdom</h3>
<p>Social media services are user-to-user services under the Online Safety Act 2023, and nearly all are likely to be accessed by children. From 25 July 2025, Ofcom's Protection of Children Codes expect them to use highly effective age assurance where they allow primary priority content such as pornography or self-harm content, and where they are at medium or high risk of harmful content and need to identify children to protect them. Platforms with recommender systems that present such risks should filter the most harmful content out of children's feeds and reduce the prominence of other harmful content. Self-declaration is not highly effective.</p>
<h3>European Union</h3>
<p>Article 28 of the Digital Services Act requires online platforms accessible to minors to ensure a high level of privacy, safety and security for them, and prohibits advertising based on profiling where the platform is aware with reasonable certainty that the user is a minor. The European Commission's guidelines on Article 28, published on 14 July 2025, recommend a risk-based approach to age assurance: age verification for the highest-risk services and content, age estimation in some medium-risk contexts, and a clear statement that self-declaration is not sufficient. They also set detailed expectations for default settings, recommender systems and features that encourage excessive use.</p>
<h3>Australia</h3>
<p>Australia has gone furthest. Amendments to its Online Safety Act passed in late 2024 require designated social media platforms to take reasonable steps to prevent under-16s from holding accounts, with the obligation due to take effect by December 2025. The government commissioned a large trial of age assurance technologies to inform the eSafety Commissioner's guidance on what "reasonable steps" means.</p>
<h3>United States</h3>
<p>The federal COPPA Rule, updated by the Federal Trade Commission in 2025, continues to govern data collection from under-13s. At state level, a series of laws requiring age verification and parental consent for minors' social media accounts has met sustained constitutional challenge, largely brought by the trade association NetChoice. Arkansas's 2023 law was permanently enjoined in 2025; Utah's laws have been enjoined; Mississippi's law has moved back and forth between the district court and the Fifth Circuit; and laws in several other states face similar challenges. The Supreme Court's June 2025 decision upholding Texas's age verification law for pornographic websites does not resolve these cases, because most social media content is protected speech for minors as well as adults.</p>

<h2>What regulators actually want</h2>
<p>Across these regimes, the common expectations are more consistent than the legal detail suggests:</p>
<ul>
  <li><strong>Know which users are children</strong>, with more confidence than self-declaration provides, in proportion to the risks on your service.</li>
  <li><strong>Give children a different experience</strong>: safer defaults, filtered recommendations, limited contact from strangers, no profiling-based advertising.</li>
  <li><strong>Keep adults-only content and features away from children.</strong></li>
  <li><strong>Do it with minimal data</strong>, and without turning age assurance into a surveillance tool.</li>
</ul>

<h2>A practical architecture: age as a platform signal</h2>
<p>The most resilient approach treats age as a first-class attribute of every account, with an associated confidence level, rather than as a one-off gate. In practice that means:</p>
<h3>1. An age state for every account</h3>
<p>Each account carries an age band (for example under 13, 13&ndash;15, 16&ndash;17, adult) and an assurance level (self-declared, inferred, estimated, verified), along with when and how it was established. Policy decisions &mdash; what the feed shows, who can message the user, whether advertising is personalised &mdash; read from that state.</p>
<h3>2. Proportionate checks at the right moments</h3>
<ul>
  <li><strong>At sign-up</strong>, a low-friction check such as facial age estimation or a reusable digital credential establishes an initial band. Where local law sets a minimum age, this is where it is enforced.</li>
  <li><strong>At access to higher-risk features</strong> &mdash; adult content settings, live streaming, direct messages to strangers, monetisation &mdash; a stronger check is triggered if the account's assurance level is insufficient.</li>
  <li><strong>On signals of misrepresentation</strong>, such as reports from other users or strong behavioural indicators that an "adult" account belongs to a child, the account is asked to re-establish its age.</li>
</ul>
<h3>3. Existing users</h3>
<p>Regulators are clear that duties apply to the existing user base. A staged programme &mdash; starting with accounts that can access the highest-risk features and accounts whose declared age is inconsistent with other signals &mdash; spreads the load and the conversion impact.</p>
<h3>4. Age inference, carefully</h3>
<p>Many platforms already infer age from behaviour and content signals. Inference can be a useful trigger for a check, but on its own it is unlikely to meet the "highly effective" bar in the UK, and it raises transparency issues under data protection law. Use it to decide when to ask, not to decide the answer.</p>

<h2>The experience for younger users</h2>
<p>Age assurance only matters if it changes something. The measures regulators most commonly expect for accounts identified as belonging to children include:</p>
<ul>
  <li>private accounts by default, with limits on who can find, follow and message them;</li>
  <li>no recommendation of the child's account to unknown adults;</li>
  <li>recommender systems that filter out the most harmful content and do not rely solely on engagement signals;</li>
  <li>no profiling-based advertising;</li>
  <li>easy tools to block, mute, restrict and report, and the ability to decline group invitations;</li>
  <li>limits on design features that push compulsive use, such as streaks and autoplay.</li>
</ul>

<h2>Parental consent and oversight</h2>
<p>Several US state laws and the COPPA Rule require verifiable parental consent for younger users, and many platforms offer parental supervision tools. Parental consent introduces its own verification challenge: confirming that the consenting person is an adult and plausibly the parent. Treat parental tools as a complement to, not a substitute for, safe defaults; regulators in the UK and EU have been explicit that responsibility sits with the platform.</p>

<h2>Handling mistakes</h2>
<p>Every age assurance method misclassifies some people. A 19-year-old placed in the 16&ndash;17 band will be frustrated; a 15-year-old placed in the adult band is exposed to risk. Build:</p>
<ul>
  <li>a clear appeal route, with an alternative method, for users who believe they have been misclassified;</li>
  <li>human review for edge cases and for users who cannot use standard methods;</li>
  <li>monitoring of misclassification rates by method and demographic group.</li>
</ul>

<h2>Engineering for many jurisdictions</h2>
<p>The legal requirements differ, but the building blocks are the same. Keep the jurisdiction-specific logic in configuration: minimum ages, required assurance levels per feature, consent requirements and accepted methods per country or state. That allows the platform to respond to a new law, or a new injunction, without re-architecting. It also makes it easier to explain your approach to regulators, because the policy is expressed in one place.</p>

<h2>Takeaways</h2>
<ol>
  <li>Self-declared dates of birth are no longer a defensible basis for age-related protections in the UK, the EU or Australia.</li>
  <li>Model age as an account attribute with an assurance level, and tie features and defaults to it.</li>
  <li>Use low-friction methods broadly and stronger methods for higher-risk features, with appeal routes for misclassified users.</li>
  <li>Keep the US patchwork in configuration, and track litigation: the legal position in several states can change within weeks.</li>
  <li>Minimise data throughout. The most durable age assurance designs are those that prove age without building a profile of identity.</li>
</ol>
`,
  },
  {
    id: 7,
    title: 'App Store Accountability: How Utah and Texas Are Shifting Age Verification to Apple and Google',
    excerpt:
      "Utah and Texas passed laws in 2025 requiring app stores to verify users' ages, link minors' accounts to a parent and pass age signals to developers. What the laws require, when they bite, and why app developers still need their own strategy.",
    ...AUTHORS.torres,
    date: '2025-07-16',
    readTime: '5 min read',
    category: 'Industry Insights',
    tags: ['United States', 'App stores', 'Utah', 'Texas', 'Parental consent'],
    content: `
<p>One of the most persistent arguments in the age assurance debate is about <em>where</em> the check should happen. Should every website and app verify age separately, or should it be done once, at the level of the device, operating system or app store, and shared? In 2025 two US states answered that question in law. Utah's App Store Accountability Act, signed in March, and Texas's SB 2420, signed in May, place primary age verification duties on app store operators &mdash; in practice, Apple and Google &mdash; and require them to share age information with developers.</p>

<h2>What the laws require</h2>
<p>The Utah and Texas statutes share a structure, with differences of detail. In broad terms:</p>
<h3>App store providers must</h3>
<ul>
  <li>determine the age category of each user when an account is created, using commercially reasonable methods rather than self-declaration;</li>
  <li>where the user is a minor, require the account to be affiliated with a parent or guardian's account;</li>
  <li>obtain parental consent before a minor downloads or purchases apps or makes in-app purchases;</li>
  <li>make the user's age category and consent status available to developers through a secure interface;</li>
  <li>protect the personal data collected for these purposes and limit its use.</li>
</ul>
<h3>Developers must</h3>
<ul>
  <li>use the age category and consent information provided by the app store to enforce their own age-related restrictions and legal obligations;</li>
  <li>not use that data for other purposes, and protect it;</li>
  <li>in some circumstances notify the app store of significant changes to their apps, so that fresh parental consent can be sought.</li>
</ul>
<p>The laws define age categories along familiar lines: under 13, 13 to 15, 16 to 17, and adults. Enforcement differs between the states. Utah's law includes a private right of action for harmed minors and their parents; Texas relies on its deceptive trade practices framework and attorney general enforcement.</p>

<h2>The timeline</h2>
<p>Neither law bites immediately. Utah's core obligations apply from May 2026, with the private right of action following later in 2026. Texas's law takes effect on 1 January 2026. That gives platform operators months to build the required interfaces and developers time to integrate them. Other states have considered similar bills, and a federal version has been introduced in Congress, so the model may spread.</p>

<h2>The industry split</h2>
<p>The app store model has divided the technology industry. Several large social media companies have supported it publicly, arguing that app stores already hold account, device and payment information and are best placed to establish age once for the whole ecosystem. App store operators have been more critical. Google has publicly argued that the approach shifts responsibility away from the apps that present risks and requires the collection of sensitive data from many users to serve a small number of apps. Apple has emphasised its own privacy-preserving approach, including an interface that lets parents share a child's age range with apps without revealing a date of birth.</p>
<p>Both companies have been developing tools that will help developers comply: Apple's age range interface and Google's announced plans for age signals on Android. The details will matter greatly, particularly how granular the signal is, how it is protected, and how developers are expected to treat users whose age is unknown.</p>

<h2>Why developers still need their own strategy</h2>
<p>It would be tempting for app developers to conclude that age verification has become someone else's problem. That would be a mistake, for several reasons.</p>
<ol>
  <li><strong>The laws are state-specific.</strong> Outside Utah and Texas, app stores have no legal duty to share age signals, and developers' own obligations under other state laws, federal law and foreign law continue to apply.</li>
  <li><strong>The web is not covered.</strong> Most services are available on the web as well as in apps. A check performed by an app store does nothing for a user who visits the same service in a browser, and regulators elsewhere will expect equivalent protections across channels.</li>
  <li><strong>Foreign regimes have their own standards.</strong> The UK's Online Safety Act expects services themselves to implement highly effective age assurance. An app store signal might contribute, but a service will still need to satisfy itself &mdash; and Ofcom &mdash; that the overall process meets the standard.</li>
  <li><strong>Age bands may not match your needs.</strong> A service with an 18+ gate can use an "adult" signal directly. A service that needs to apply a threshold of 21, or to distinguish more finely, may need more.</li>
  <li><strong>Shared devices and accounts persist.</strong> An app store account established by an adult, on a device used by a child, will carry an adult signal. Developers with high-risk features may need additional, feature-level checks.</li>
  <li><strong>Litigation is likely.</strong> These laws have not yet been tested in court. Challenges based on the First Amendment, and on the burden imposed on adults, may alter their scope or timing.</li>
</ol>

<h2>Preparing for the app store signal</h2>
<p>Developers serving US users should plan to consume app store age signals as one input among several:</p>
<ul>
  <li><strong>Model age as an account attribute</strong> with a source and assurance level, so that an app store signal, a facial age estimate and a verified credential can coexist.</li>
  <li><strong>Map features to requirements</strong>: which features need parental consent, which need an adult signal, and which need a higher level of assurance than the app store provides.</li>
  <li><strong>Plan for unknown age.</strong> Some users will have no signal available, either because they are outside the relevant states or because the app store cannot provide one. Decide on safe defaults.</li>
  <li><strong>Handle consent revocation.</strong> The laws contemplate parents being able to withdraw consent. Your app must respond when that happens.</li>
  <li><strong>Minimise and segregate.</strong> Treat age signals as sensitive data, use them only for the purposes the laws allow, and do not feed them into advertising systems.</li>
</ul>

<h2>A note for web-first services</h2>
<p>Services whose main channel is the web should not assume that app store laws will change much for them. The obligations fall on app stores and on developers distributing through them. A browser visit carries no app store signal, and no US state has so far required browsers or operating systems to provide one to websites. Web-first services will continue to need their own age assurance, and should expect regulators to compare the protections in their apps and on their websites.</p>

<h2>The bigger picture</h2>
<p>The app store laws are part of a global debate about layering. Regulators increasingly accept that age assurance can be done once and re-used, through digital identity wallets, reusable tokens or platform-level signals, provided the result is reliable and privacy is protected. The European Commission's age verification blueprint, published on 14 July 2025, points in the same direction from a different starting point: a user-held credential rather than a platform-held signal. Whether the future looks more like the Utah model or the European one, the services that adapt best will be those that have built a flexible age layer able to accept signals from multiple sources, rather than hard-wiring a single approach.</p>
<p>The statutes are available from the <a href="https://le.utah.gov/" rel="noopener noreferrer">Utah Legislature</a> and the <a href="https://capitol.texas.gov/" rel="noopener noreferrer">Texas Legislature</a> websites. This article is general information, not legal advice.</p>
`,
  },
  {
    id: 8,
    title: "DSA Article 28 Guidelines Decoded: The Commission's New Benchmark for Protecting Minors Online",
    excerpt:
      'On 14 July 2025 the European Commission published its guidelines on the protection of minors under Article 28 of the Digital Services Act. They are not binding, but they are the yardstick the Commission and national regulators will use. What they say about age assurance, default settings and recommender systems.',
    ...AUTHORS.laurent,
    date: '2025-07-15',
    readTime: '8 min read',
    category: 'Compliance',
    tags: ['EU', 'Digital Services Act', 'Article 28', 'Minors', 'Age verification'],
    featured: true,
    content: `
<p>Article 28 of the Digital Services Act is only four paragraphs long, but it carries one of the most consequential obligations in the regulation. Providers of online platforms accessible to minors must put in place "appropriate and proportionate measures to ensure a high level of privacy, safety, and security of minors" on their service. Until this week, what that meant in practice was largely a matter of interpretation. On 14 July 2025 the European Commission published its guidelines under Article 28(4), together with a prototype of its age verification app. This article explains what the guidelines say and what platforms should do about them.</p>

<h2>Article 28 in brief</h2>
<p>The provision has four elements:</p>
<ol>
  <li>the general duty to ensure a high level of privacy, safety and security for minors;</li>
  <li>a prohibition on presenting advertisements based on profiling using personal data where the provider is aware with reasonable certainty that the user is a minor;</li>
  <li>a clarification that compliance does not oblige providers to process additional personal data to assess whether a user is a minor;</li>
  <li>a power for the Commission to issue guidelines, after consulting the European Board for Digital Services.</li>
</ol>
<p>Paragraph 3 has sometimes been read as meaning that platforms never need to check age. The guidelines reject that reading in substance: where the risks to minors require it, age assurance is an appropriate and proportionate measure, and the data it involves should be minimised rather than avoided altogether. The regulation's text is on <a href="https://eur-lex.europa.eu/eli/reg/2022/2065/oj" rel="noopener noreferrer">EUR-Lex</a>, and the guidelines and related materials on the Commission's <a href="https://digital-strategy.ec.europa.eu/" rel="noopener noreferrer">digital strategy</a> site.</p>

<h2>Who is in scope</h2>
<p>The guidelines apply to all online platforms accessible to minors, with the exception of micro and small enterprises that are not designated as very large online platforms. Importantly, a platform cannot take itself out of scope simply by stating in its terms and conditions that it is for adults only. If minors can and do access the service, because no effective measures prevent them, the platform is accessible to minors. Adult platforms are therefore squarely in scope, and the guidelines expect them to use effective age verification.</p>

<h2>The guiding principles</h2>
<p>The Commission frames its recommendations around four principles:</p>
<ul>
  <li><strong>Proportionality and appropriateness</strong> &mdash; measures should reflect the specific risks a platform poses, taking into account its size, nature and audience.</li>
  <li><strong>Children's rights</strong> &mdash; measures should respect the full range of children's rights, including participation and access to information, with the best interests of the child as a primary consideration.</li>
  <li><strong>Privacy, safety and security by design</strong> &mdash; protections should be built into services, not bolted on.</li>
  <li><strong>Age-appropriate design</strong> &mdash; services should reflect the developmental needs of children of different ages.</li>
</ul>
<p>The guidelines expect platforms to carry out a review of the risks their service poses to minors, drawing on a broad typology that covers content, conduct, contact and consumer risks as well as cross-cutting issues such as privacy and excessive use. That review drives the choice of measures.</p>

<h2>Age assurance: a risk-based hierarchy</h2>
<p>The section on age assurance is the part most likely to change platform behaviour. The guidelines distinguish three families of methods:</p>
<ul>
  <li><strong>Self-declaration</strong> &mdash; the user states their age or confirms that they are over a threshold. The guidelines consider this insufficiently reliable and do not treat it as an appropriate age assurance measure.</li>
  <li><strong>Age estimation</strong> &mdash; methods that estimate that a user is likely to be of a certain age or within an age range, such as facial age estimation.</li>
  <li><strong>Age verification</strong> &mdash; methods that rely on physical identifiers or verified sources of identification, providing a high degree of certainty.</li>
</ul>
<p>The guidelines then indicate when each is appropriate. Age verification is considered appropriate in high-risk situations, including where:</p>
<ul>
  <li>Union or national law sets a minimum age for accessing certain products or services, such as pornography, gambling or the sale of alcohol;</li>
  <li>the platform's own terms require users to be adults because of risks identified on the service;</li>
  <li>the risk review identifies high risks to minors that cannot be mitigated by less restrictive measures.</li>
</ul>
<p>Age estimation may be appropriate in some medium-risk situations &mdash; for example, where a platform's terms set a minimum age below 18 because of identified risks, or where risks can be addressed without the certainty of verification. Estimation methods should be provided or audited independently where the platform has an interest in the outcome.</p>
<p>Whatever the method, the guidelines expect it to be assessed against criteria of <strong>accuracy, reliability, robustness, non-intrusiveness and non-discrimination</strong>. They also recommend offering more than one method, so that users who cannot use one option are not excluded, and providing a way for users to challenge incorrect assessments.</p>

<h2>The EU age verification solution as a benchmark</h2>
<p>The Commission links the guidelines directly to its age verification blueprint, published the same day and being piloted with a first group of member states, and to the forthcoming European Digital Identity Wallets. These solutions are designed to let a user prove they are over 18 without revealing any other information, and the guidelines present them as an example of the standard of privacy and effectiveness expected. Platforms are not obliged to use the EU solution, but alternative methods will be compared with it. In practice, a method that collects more data than the EU approach without a good reason will be difficult to justify.</p>

<h2>Beyond age: what platforms must do for minors</h2>
<p>Age assurance is the gateway, not the goal. The guidelines set out extensive expectations for how platforms treat users who are, or may be, minors. Among the most significant:</p>
<h3>Account settings and defaults</h3>
<ul>
  <li>Minors' accounts should be private by default, so that their content and profile are not visible to users they have not accepted.</li>
  <li>Features that increase risk &mdash; such as geolocation, and unsolicited contact from unknown users &mdash; should be off by default.</li>
  <li>Settings should be explained in age-appropriate language, and platforms should not nudge minors into reducing their protections.</li>
</ul>
<h3>Design for wellbeing</h3>
<ul>
  <li>Features that encourage excessive use, such as streaks, persistent notifications and endless autoplay, should be disabled or limited for minors.</li>
  <li>Time management and wellbeing tools should be easy to find and use.</li>
</ul>
<h3>Recommender systems</h3>
<ul>
  <li>Recommender systems should not rely primarily on behavioural profiling of minors, should prioritise explicit signals such as the topics a minor chooses to follow, and should give minors an option that is not based on profiling.</li>
  <li>Platforms should take steps to prevent minors from being repeatedly exposed to content that may harm their wellbeing, even where individual items are not illegal.</li>
</ul>
<h3>Commercial practices</h3>
<ul>
  <li>Minors should not be exposed to manipulative commercial practices that exploit their lack of commercial literacy, including opaque virtual currencies and gambling-like mechanics.</li>
  <li>Advertising based on profiling must not be shown to minors, consistent with Article 28(2).</li>
</ul>
<h3>Moderation, reporting and support</h3>
<ul>
  <li>Reporting tools should be easy for minors to use, with feedback on outcomes.</li>
  <li>Minors should be able to block and mute users and to control who can add them to groups.</li>
  <li>Parental tools can complement, but not replace, the platform's own responsibility.</li>
</ul>
<h3>Governance</h3>
<ul>
  <li>Platforms should designate a person or team responsible for minors' protection, train staff, and monitor the effectiveness of their measures.</li>
  <li>Terms and conditions should be explained in a way minors can understand.</li>
</ul>

<h2>Legal status and enforcement</h2>
<p>The guidelines are not legally binding. However, the Commission has said it will use them as a significant and meaningful benchmark when assessing compliance with Article 28, and national Digital Services Coordinators will use them for platforms under their supervision. For very large online platforms, the Commission already has proceedings under way concerning the protection of minors, including formal proceedings opened in May 2025 against several major adult content platforms over the effectiveness of their age verification. The guidelines will inform how those cases develop.</p>
<p>The Commission has indicated that it will review the guidelines as experience accumulates. Platforms should expect the bar to rise rather than fall, particularly as EU Digital Identity Wallets become available across member states by the end of 2026.</p>

<h2>How the guidelines sit alongside national rules</h2>
<p>The Digital Services Act harmonises the obligations of online platforms across the Union, and member states cannot add their own rules on matters the regulation covers. At the same time, the guidelines expressly accommodate national law that sets minimum ages for particular products and services, and several member states have acted in this space. France's regime for adult sites under the SREN law is the best known; Italy's communications regulator adopted its own technical requirements for age verification on pornographic sites in 2025; and a number of governments have called for an EU-wide "digital majority" age for social media. The relationship between these national measures and the DSA is still being worked out, including in litigation about how far a member state can impose obligations on services established in another.</p>
<p>For platforms operating across the Union, the practical consequence is that the guidelines set a common floor, while national rules may add specific requirements on method or timing. An age assurance layer whose methods, thresholds and user journeys can be configured per member state is the sensible response.</p>

<h2>What it means for medium-sized platforms</h2>
<p>Much public attention focuses on the largest platforms, which the Commission supervises directly. But the guidelines apply equally to medium-sized platforms, supervised by the Digital Services Coordinator in the member state where they are established. These services often have less regulatory experience and fewer specialist staff. The proportionality principle works in their favour &mdash; a small forum for hobbyists is not expected to build what a global video platform builds &mdash; but it does not exempt them from thinking seriously about minors. A documented risk review, a reasoned choice of age assurance measures and sensible defaults for younger users are within reach of almost any platform, and they are what a national regulator will ask to see first.</p>

<h2>A compliance checklist for platforms</h2>
<ol>
  <li><strong>Confirm whether you are accessible to minors</strong>, honestly. Terms of service alone do not remove you from scope.</li>
  <li><strong>Carry out and document a risk review</strong> covering content, conduct, contact and consumer risks to minors.</li>
  <li><strong>Map your risks to the age assurance hierarchy.</strong> Adult-only services and services offering age-restricted products need verification. Lower-risk services with minimum ages may justify estimation. Remove reliance on self-declaration.</li>
  <li><strong>Offer at least two methods</strong>, including one with the privacy characteristics of the EU solution, and provide a redress route.</li>
  <li><strong>Audit your defaults</strong> for accounts of minors: privacy, contact, geolocation, notifications and engagement features.</li>
  <li><strong>Review your recommender systems</strong> and advertising pipelines for minors.</li>
  <li><strong>Assign ownership</strong> and set up monitoring, so you can show the measures work.</li>
</ol>
<p>This article is general information, not legal advice. The guidelines contain considerably more detail than can be summarised here and should be read in full.</p>
`,
  },
  {
    id: 9,
    title:
      'Inside the EU Age Verification Blueprint: How the Commission\'s Prototype App Proves "Over 18" Without Revealing Who You Are',
    excerpt:
      'Alongside its Article 28 guidelines, the European Commission published a prototype age verification app to be piloted in Denmark, France, Greece, Italy and Spain. We look at how it works, what it means for online services and how it connects to the EU Digital Identity Wallet.',
    ...AUTHORS.laurent,
    date: '2025-07-16',
    readTime: '5 min read',
    category: 'Technology',
    tags: ['EU', 'Age verification blueprint', 'EUDI wallet', 'Privacy', 'Selective disclosure'],
    content: `
<p>For years, European debates about age verification have foundered on the same dilemma: effective checks seemed to require identity data, and identity data seemed incompatible with privacy. On 14 July 2025 the European Commission published what it hopes will be a way out &mdash; an open, interoperable blueprint for an age verification solution that lets a user prove they are over 18 without revealing anything else. Five member states &mdash; Denmark, France, Greece, Italy and Spain &mdash; are the first to pilot it, with a view to integrating it into national apps or wallets.</p>

<h2>Why the Commission built it</h2>
<p>The Digital Services Act expects platforms accessible to minors to ensure their safety, and the Commission's new Article 28 guidelines recommend age verification for adult content and other high-risk services. Without a common solution, every platform would have to contract separately with commercial providers, and every member state might develop its own incompatible scheme. The blueprint is intended to provide a trusted, privacy-preserving reference point that can be adopted across the Union. It is also a bridge: the full European Digital Identity Wallets, which member states must make available by the end of 2026, will be able to carry the same kind of age proof.</p>

<h2>How it works, step by step</h2>
<h3>1. Getting a proof of age</h3>
<p>The user installs an app &mdash; either a national app built from the blueprint or an existing wallet that adopts its specifications &mdash; and obtains a proof-of-age attestation from a trusted issuer. The onboarding routes in the prototype rely on strong sources: a national electronic identity scheme, or an electronic passport or identity card whose chip the phone reads. The specification is designed so that member states can add further trusted onboarding routes. The issuer checks the user's date of birth and issues an attestation stating that the holder is over 18. It does not need to include the user's name or date of birth.</p>
<h3>2. Presenting the proof</h3>
<p>When a website or app needs to confirm that the user is an adult, it sends a request using a standard protocol. On a mobile device, the request opens the app directly; on a desktop, the user scans a QR code with their phone. The user sees what is being requested &mdash; only "over 18" &mdash; and approves. The app returns a signed presentation.</p>
<h3>3. Checking the proof</h3>
<p>The service verifies the issuer's signature against the list of trusted issuers and confirms that the proof is bound to the device presenting it. It learns that the user is over 18, and nothing more: no name, no date of birth, no document number.</p>

<h2>The privacy design</h2>
<p>Three properties matter most:</p>
<ul>
  <li><strong>Minimal disclosure.</strong> The attestation carries an age-over statement rather than identity attributes, so there is nothing more to disclose.</li>
  <li><strong>Issuer blindness.</strong> The issuer is not involved when the proof is used, so it does not learn which services the user visits. This is the same principle as the French "double anonymat" requirement.</li>
  <li><strong>Unlinkability.</strong> If the same signed proof were presented to many services, those services could collude to recognise the user across sites. The prototype addresses this by issuing proofs in batches, with each used only once, so that presentations cannot be correlated. The Commission has indicated that zero-knowledge proof techniques, which offer stronger unlinkability, are planned for later versions.</li>
</ul>

<h2>Built on the EUDI wallet stack</h2>
<p>The blueprint reuses the technical specifications of the European Digital Identity Wallet: the same credential formats, presentation protocols and trust infrastructure. That design choice is deliberate. A service that integrates with the blueprint today is integrating with the same interfaces it will use to accept age proofs from EUDI wallets in 2026 and beyond. For relying parties, that reduces the risk of investing in an interim solution that is later abandoned.</p>
<p>The software is published as open source, allowing member states, wallet providers and relying parties to inspect, adapt and test it.</p>

<h2>What integration looks like for a service</h2>
<p>For a website or app, accepting a proof from the blueprint app is closer to adding a login option than to building a new verification system. The service generates a presentation request specifying the attribute it needs, displays it as a link or QR code, receives the signed response on its backend, and verifies it against the published trust anchors. The result is then bound to the user's session or account in the usual way. Services that already use an age assurance provider may find that the provider adds the blueprint as an additional method, so that the service receives the same pass or fail result regardless of how the user proved their age.</p>
<p>Because the credential formats and protocols are those of the EUDI wallet, the same integration should, in principle, accept age proofs from national wallets as they launch.</p>

<h2>What it does not do</h2>
<p>It is important to be clear about the limits of a prototype:</p>
<ul>
  <li><strong>It is not yet widely available.</strong> The pilots will determine how quickly national versions reach users. Most EU citizens will not have a proof of age in their pocket for some time.</li>
  <li><strong>It depends on eligible documents and devices.</strong> Users without a national eID or a chip-based document, or without a compatible smartphone, need other routes. Platforms cannot rely on it exclusively in the near term.</li>
  <li><strong>It is not mandatory.</strong> Platforms may use other methods that meet the standards set out in the guidelines. The blueprint is a benchmark rather than a monopoly.</li>
  <li><strong>It proves age, not presence.</strong> Device binding means the proof cannot simply be copied, but an adult's phone used by a child will present an adult's proof. Services with very high risks may need additional measures.</li>
</ul>

<h2>What online services should do now</h2>
<ol>
  <li><strong>Plan to accept verifiable credentials.</strong> Ensure your age assurance layer can accept a cryptographic age proof as one of several methods. If you use a provider, ask about their roadmap for the blueprint and EUDI wallet protocols.</li>
  <li><strong>Keep fallbacks.</strong> Facial age estimation, document checks and other methods will remain necessary for users without the app.</li>
  <li><strong>Design for minimal data.</strong> If the EU solution can confirm age with a single bit of information, a provider that collects names, dates of birth and document images will find it increasingly hard to justify that collection under data protection law.</li>
  <li><strong>Follow the pilots.</strong> The five pilot countries will shape the user experience and the practicalities of onboarding. France's involvement is notable given its existing double-anonymity requirement for adult sites.</li>
</ol>

<h2>The takeaway</h2>
<p>The blueprint is modest in its immediate reach but significant in its direction. It shows that a public authority can deliver privacy-preserving age verification using open standards, and it sets the expectation against which other methods will be judged. For online services, the practical message is to build an age assurance layer that can accept reusable credentials now, while continuing to support the methods most users will rely on in the meantime.</p>
`,
  },
  {
    id: 10,
    title:
      'The EU Digital Identity Wallet and Age Assurance: What Relying Parties Should Prepare Before 2026',
    excerpt:
      'Every EU member state must offer citizens a European Digital Identity Wallet by the end of 2026, and many online services will be expected to accept it. A technical and practical primer on how the wallet supports age checks, and what to build now.',
    ...AUTHORS.chen,
    date: '2025-07-16',
    readTime: '5 min read',
    category: 'Technology',
    tags: ['EUDI wallet', 'eIDAS 2', 'Verifiable credentials', 'Selective disclosure', 'EU'],
    content: `
<p>The European Digital Identity Wallet is the most ambitious digital identity project any group of governments has attempted. Under Regulation (EU) 2024/1183, which amended the eIDAS Regulation and entered into force in May 2024, every member state must make at least one wallet available to its citizens and residents, free of charge, by the end of 2026. For age assurance, the wallet offers something the market has long lacked: a government-backed, privacy-preserving way for people to prove attributes such as "over 18" online, accepted across borders. This article explains what the wallet is, how age checks will work and what relying parties should do to prepare.</p>

<h2>What the wallet is</h2>
<p>An EUDI wallet is an app, or a combination of app and secure hardware, that holds digital credentials and presents them at the user's request. The regulation provides for several kinds of credential:</p>
<ul>
  <li><strong>Person identification data (PID)</strong>, issued by or on behalf of the member state, containing core identity attributes such as name and date of birth.</li>
  <li><strong>Electronic attestations of attributes</strong>, which can be issued by public bodies or private providers and may be qualified, carrying a higher legal status. Examples include diplomas, professional qualifications, driving entitlements and, importantly for our purposes, age attestations.</li>
</ul>
<p>The wallet must let users disclose attributes selectively, see a log of what they have shared with whom, and report suspicious requests to data protection authorities. Use is voluntary: citizens cannot be required to use a wallet, and must not be disadvantaged for declining.</p>
<p>The full text of the regulation is available on <a href="https://eur-lex.europa.eu/eli/reg/2024/1183/oj" rel="noopener noreferrer">EUR-Lex</a>.</p>

<h2>How an age check works with the wallet</h2>
<p>From the relying party's perspective, an age check with an EUDI wallet is a request for a single attribute:</p>
<ol>
  <li>The service sends a presentation request asking for an age-over attribute, such as "age over 18", using the standard presentation protocol.</li>
  <li>The wallet shows the user who is asking and what they are asking for. Because relying parties must be registered and declare their intended use, the wallet can warn users about requests that exceed what the relying party has registered.</li>
  <li>The user approves, typically with a device unlock or biometric check, and the wallet returns a signed presentation containing only the requested attribute.</li>
  <li>The service verifies the signature against the trusted list of issuers and checks that the presentation is bound to the wallet that holds it.</li>
</ol>
<p>The service learns a single yes-or-no answer. It does not receive the user's name or date of birth unless it asks for them and the user agrees.</p>

<h2>Under the hood</h2>
<p>The technical rules are set out in implementing acts and the Architecture and Reference Framework, developed openly with member states. Three components matter most for relying parties.</p>
<h3>Credential formats</h3>
<p>Two formats are supported: the ISO/IEC 18013-5 mobile document (mdoc) format, originally developed for mobile driving licences, and SD-JWT verifiable credentials. Both support selective disclosure by including individually hashed attributes, so that the holder can reveal some and withhold others while the issuer's signature remains verifiable.</p>
<h3>Protocols</h3>
<p>Issuance and presentation use OpenID for Verifiable Credential Issuance and OpenID for Verifiable Presentations, alongside ISO-defined flows for mdoc presentation. Supporting these protocols is the core integration task for relying parties.</p>
<h3>Trust infrastructure</h3>
<p>Relying parties need access to trusted lists of wallet providers and credential issuers, and will themselves be registered and issued access certificates. Verifying a presentation means checking the full chain: the issuer is trusted, the credential is valid and not revoked, the presentation is bound to the holder's device, and the request was made by a registered relying party.</p>

<h2>Who will have to accept the wallet</h2>
<p>The regulation imposes acceptance obligations on certain relying parties. Public sector bodies that require electronic identification must accept the wallet. Private relying parties that are required by law or contract to use strong user authentication &mdash; for example in banking, transport, energy, health and telecommunications &mdash; must accept it when a user asks. Very large online platforms designated under the Digital Services Act that require users to authenticate must also accept it at the user's request. These obligations phase in after the wallets become available.</p>
<p>For most platforms using the wallet for age assurance, acceptance will be voluntary rather than mandated. But the European Commission's Article 28 guidelines point to the EU age verification solution and the wallets as the benchmark for privacy-preserving age checks. Services that can accept wallet-based proofs will find it easier to show that their approach is proportionate.</p>

<h2>The bridge: the age verification blueprint</h2>
<p>Because the wallets will not be universally available until at least the end of 2026, the Commission has published an age verification blueprint: a lighter-weight app built on the same specifications, which five member states are piloting from July 2025. A relying party that integrates the blueprint's presentation flow is building on the same protocols it will use for the wallets. That is the strongest argument for starting work now rather than waiting.</p>

<h2>Open questions</h2>
<ul>
  <li><strong>Unlinkability.</strong> Presenting the same signed credential to multiple relying parties can allow them to correlate the user. Batch issuance of single-use credentials mitigates this; zero-knowledge proofs offer stronger guarantees but are still maturing in the wallet ecosystem.</li>
  <li><strong>Take-up.</strong> The success of national digital identity schemes has varied enormously across member states. Wallet adoption is likely to be uneven for several years.</li>
  <li><strong>Cross-device journeys.</strong> Desktop users will need to scan a QR code with their phone. The experience must be smooth for this to be a convenient route.</li>
  <li><strong>Non-EU users.</strong> The wallet serves EU citizens and residents. Services with international audiences will continue to need other methods.</li>
</ul>

<h2>A preparation checklist for relying parties</h2>
<ol>
  <li><strong>Decide what you need.</strong> For most age checks, a single age-over attribute is enough. Resist requesting more.</li>
  <li><strong>Support the standard protocols.</strong> Plan for OpenID for Verifiable Presentations and mdoc presentation, either directly or through your age assurance provider.</li>
  <li><strong>Prepare for registration.</strong> Understand the relying party registration process in the member states where you operate, and how your declared use will be shown to users.</li>
  <li><strong>Design a multi-method journey.</strong> Offer the wallet alongside other methods, and make it prominent for users who have one.</li>
  <li><strong>Keep verification server-side.</strong> Verify presentations on your backend, check trust lists and revocation status, and bind the result to the user's session.</li>
  <li><strong>Store results, not credentials.</strong> Record that a valid age-over proof was received, when and from which issuer, and discard the presentation itself.</li>
</ol>

<h2>The takeaway</h2>
<p>The EUDI wallet will not replace other age assurance methods overnight, but it changes the long-term economics and the privacy baseline. When a government-backed credential can answer "is this person over 18?" with one bit of data, methods that collect more will need strong justification. Relying parties that prepare now can offer their users the most private option as soon as it becomes available.</p>
`,
  },
  {
    id: 11,
    title: 'Facial Age Estimation Explained: Accuracy, Buffers and Why "Challenge 25" Works Online Too',
    excerpt:
      "Facial age estimation is now one of the most widely used age assurance methods, and it appears on both Ofcom's and Arcom's lists of acceptable approaches. How the models work, how to read accuracy claims, and how to choose a challenge age that keeps minors out without locking young adults out.",
    ...AUTHORS.chen,
    date: '2025-07-09',
    readTime: '6 min read',
    category: 'Technology',
    tags: ['Facial age estimation', 'Challenge 25', 'Accuracy', 'Bias', 'Biometrics'],
    content: `
<p>Anyone who has bought a bottle of wine in a British supermarket is familiar with "Challenge 25": if you look under 25, the cashier asks for ID. Nobody expects the cashier to guess ages to the year. The policy works because it builds in a margin &mdash; a customer who looks 24 might be 17, but a customer who looks 35 almost certainly is not. Facial age estimation applies exactly the same logic with a camera and a model. Understanding that logic is the key to deploying it well.</p>

<h2>How facial age estimation works</h2>
<p>A facial age estimation system takes an image or short video of a face and outputs an estimate of the person's age. Modern systems use deep neural networks trained on very large sets of facial images labelled with verified ages. During training, the network learns which visual features &mdash; skin texture, facial proportions, bone structure, the shape of the eyes and mouth &mdash; correlate with age. In use, the network produces either a single estimated age or a distribution over possible ages.</p>
<p>Three points are often misunderstood:</p>
<ul>
  <li><strong>It is not facial recognition.</strong> The system does not compare the face against a database or try to establish who the person is. It estimates a property of the face, much as a human would.</li>
  <li><strong>It needs a live face.</strong> An estimate is only meaningful if the face belongs to the person in front of the camera. A liveness or presentation attack detection step is an essential part of the system, not an optional extra.</li>
  <li><strong>The image need not be kept.</strong> A well-designed system processes the image, returns a result and deletes the image immediately. Some systems run entirely on the user's device.</li>
</ul>

<h2>How to read accuracy claims</h2>
<p>Providers usually quote <strong>mean absolute error</strong> (MAE): the average difference, in years, between estimated and true age. MAE is a useful headline, but on its own it can mislead. An MAE computed across all ages from 6 to 70 hides the fact that errors vary by age band. And for age assurance what matters is not the average error, but the error at the threshold you care about.</p>
<p>The more useful questions are threshold-based:</p>
<ul>
  <li><strong>What proportion of under-18s are estimated above our challenge age?</strong> These are the minors who would get through. For a well-configured system this should be very small, and it should be reported separately for 13&ndash;15-year-olds and 16&ndash;17-year-olds, since the latter are much harder to distinguish from adults.</li>
  <li><strong>What proportion of adults are estimated below our challenge age?</strong> These adults will be asked to use another method. This drives your fallback rate and, ultimately, your conversion cost.</li>
  <li><strong>How do these rates vary by sex, skin tone and age?</strong> A system that performs well on average but poorly for some groups is not fair, and fairness is one of Ofcom's four criteria.</li>
</ul>
<p>Ask providers for results measured on data representative of your users, and for independent evaluations where they exist. The US National Institute of Standards and Technology runs an ongoing evaluation of age estimation algorithms, and certification bodies in the UK test age estimation against defined protocols. Independent results are more credible than self-reported figures, but check that the test conditions resemble yours &mdash; laboratory-quality images will flatter any model.</p>

<h2>Choosing a challenge age</h2>
<p>The challenge age is the estimated age above which a user passes without further checks. For an 18+ service, setting the challenge age at 18 would pass a large share of 16- and 17-year-olds, because any estimator's errors are roughly symmetric around the true age. The challenge age therefore needs a buffer.</p>
<p>How big? That depends on the model's error distribution near the threshold. The principle is:</p>
<ol>
  <li>Decide the maximum acceptable rate at which minors of the relevant age pass.</li>
  <li>Find the lowest challenge age at which the model's measured pass rate for those minors is below that level, with a margin for real-world conditions.</li>
  <li>Measure what proportion of your adult users fall below that challenge age, and make sure your fallback methods can absorb them.</li>
</ol>
<p>In practice, services with an 18+ threshold commonly use challenge ages in the low to mid twenties. Retail's "Challenge 25" is a reasonable mental model, though the right number for a given model may be higher or lower. What matters is that the choice is evidence-based and documented.</p>
<table>
  <thead>
    <tr><th>Challenge age setting</th><th>Minors passing</th><th>Adults sent to fallback</th><th>Suitable for</th></tr>
  </thead>
  <tbody>
    <tr><td>Close to the legal threshold</td><td>Unacceptably high</td><td>Low</td><td>Not suitable for highly effective assurance</td></tr>
    <tr><td>Moderate buffer</td><td>Low</td><td>Moderate, mostly adults in their early twenties</td><td>Most 18+ services, with a good fallback</td></tr>
    <tr><td>Large buffer</td><td>Very low</td><td>High</td><td>Highest-risk content, or where fallback is cheap and quick</td></tr>
  </tbody>
</table>

<h2>Real-world factors that affect accuracy</h2>
<p>Laboratory accuracy and field accuracy differ. Factors that degrade estimates include:</p>
<ul>
  <li><strong>Image quality</strong>: low light, backlighting, low-resolution front cameras and heavy compression.</li>
  <li><strong>Pose and occlusion</strong>: faces turned away from the camera, hands, hair, masks, hats and sunglasses.</li>
  <li><strong>Deliberate manipulation</strong>: heavy make-up, false facial hair, or beauty and ageing filters applied in the camera pipeline.</li>
  <li><strong>Population shift</strong>: a model trained mostly on one population may perform differently on another.</li>
</ul>
<p>A good capture interface mitigates many of these by giving real-time guidance &mdash; "move closer", "more light", "remove sunglasses" &mdash; and by rejecting frames that do not meet quality thresholds instead of estimating from them.</p>

<h2>Fairness and bias</h2>
<p>Age estimation accuracy varies across demographic groups. Published evaluations have shown differences by sex and by skin tone, and differences between algorithms in which groups are affected. The practical implications for operators are:</p>
<ul>
  <li>ask for accuracy results broken down by demographic group, at your threshold;</li>
  <li>be wary of any provider that claims no differences at all;</li>
  <li>make sure the fallback for users who are not passed is fast and respectful, so that any residual bias results in a minor inconvenience rather than exclusion;</li>
  <li>monitor pass rates over time, and re-test after model updates.</li>
</ul>

<h2>Security: liveness is part of the system</h2>
<p>A face estimation system without robust presentation attack detection can be defeated by holding up a photograph or playing a video of an adult. Attacks also include masks, on-screen deepfakes and, more seriously, injection of synthetic video directly into the data stream. The strength of the overall system is the strength of its weakest component. Ask for independent test results for presentation attack detection, and for information about how the system defends against injection attacks, which standard presentation attack testing does not cover.</p>

<h2>Privacy</h2>
<p>Facial age estimation is, in one sense, the most privacy-friendly method on Ofcom's list: it does not need a name, a document or a date of birth, and it produces no identifier. The UK Information Commissioner's Office has indicated that estimation which does not seek to uniquely identify individuals may not involve special category biometric data, though each deployment should be assessed on its facts. Good practice includes:</p>
<ul>
  <li>processing on the device where possible, or deleting the image immediately after processing on a server;</li>
  <li>returning only a pass/fail result, or an age band, to the service;</li>
  <li>explaining to users, in plain language, what happens to their image;</li>
  <li>never using images captured for age estimation to train models without a separate, lawful basis and clear transparency.</li>
</ul>

<h2>Takeaways</h2>
<ol>
  <li>Facial age estimation is fast, document-free and privacy-friendly, and regulators in the UK, France and the EU accept it for appropriate use cases.</li>
  <li>Accuracy must be judged at your threshold, not by a single average error figure.</li>
  <li>Always use a challenge age with an evidence-based buffer, and a good fallback for those below it.</li>
  <li>Treat liveness and injection defence as integral to the system.</li>
  <li>Monitor fairness and performance in production, not just at procurement.</li>
</ol>
`,
  },
  {
    id: 12,
    title: 'Liveness and Presentation Attack Detection: How to Read an ISO/IEC 30107-3 Test Report',
    excerpt:
      'Every selfie-based age or identity check depends on knowing the face is real and present. Vendors cite ISO/IEC 30107-3 compliance and "Level 2" results, but what do those claims actually establish? A practical guide to the metrics, the gaps and the questions to ask.',
    ...AUTHORS.chen,
    date: '2025-07-11',
    readTime: '5 min read',
    category: 'Technology',
    tags: ['Liveness', 'Presentation attack detection', 'ISO/IEC 30107-3', 'Deepfakes', 'Injection attacks'],
    content: `
<p>Facial age estimation and photo-ID matching both rest on an assumption: that the face in front of the camera belongs to a real person who is actually there. If a 15-year-old can hold up a photograph of their older sibling, or play a video of a celebrity, the most accurate age model in the world is worthless. Presentation attack detection, usually called liveness detection, is the component that defends against this. It is also the component most often described with vague or misleading claims. This article explains the standard that governs its testing and how to interpret the results.</p>

<h2>The ISO/IEC 30107 family</h2>
<p>ISO/IEC 30107 is the international standard series for biometric presentation attack detection. Part 1 sets out the framework and terminology; Part 3 defines how to test PAD mechanisms and report results. When a vendor says their liveness is "ISO/IEC 30107-3 compliant", what they should mean is that it has been <em>tested</em> according to Part 3's methodology, typically by an accredited laboratory, with results reported using its metrics. The standard does not itself set a pass mark: it defines how to measure, not what is good enough.</p>

<h2>Key terms</h2>
<ul>
  <li><strong>Presentation attack</strong>: an attempt to interfere with the biometric system by presenting something at the sensor &mdash; the camera &mdash; other than a genuine, live face of the person.</li>
  <li><strong>Presentation attack instrument (PAI)</strong>: the artefact used, such as a printed photo, a screen showing a video, a paper or silicone mask.</li>
  <li><strong>PAI species</strong>: a class of attack instrument made using the same method, for example "high-resolution photo on matte paper" or "video replay on a tablet".</li>
  <li><strong>Bona fide presentation</strong>: a genuine interaction by a real user.</li>
</ul>

<h2>The two metrics that matter</h2>
<p>Part 3 defines two core error rates, which must be read together:</p>
<h3>APCER: attack presentation classification error rate</h3>
<p>The proportion of attack presentations, of a given PAI species, that the system wrongly accepts as genuine. Part 3 requires APCER to be reported per species, and the headline figure is usually the worst species. An APCER of zero across all tested species is a strong result, but only for those species.</p>
<h3>BPCER: bona fide presentation classification error rate</h3>
<p>The proportion of genuine users wrongly rejected as attacks. This is the usability metric: every genuine user rejected has to try again or use another method. A system can achieve a near-perfect APCER by rejecting many genuine users, so an APCER figure without its accompanying BPCER tells you very little.</p>
<blockquote>Always ask for APCER and BPCER together, at the same operating point, on the same test. One without the other is marketing, not evidence.</blockquote>

<h2>Levels of attack</h2>
<p>Accredited laboratories that test to Part 3 commonly organise their test programmes into levels based on the time, expertise and equipment required to build and use the attack instruments. At the lower level, attackers use readily available materials such as printed photographs, screen replays and simple paper masks. At a higher level, attackers invest more time and money, for example in realistic latex or silicone masks and more elaborate replays. Passing a higher level means the system resisted more capable attackers.</p>
<p>These levels are defined by the testing programmes, not by the standard itself, and different laboratories define them differently. When a vendor cites a "Level 2" result, find out which laboratory, which programme, which version of the product and which date.</p>

<h2>What a good test report contains</h2>
<ol>
  <li><strong>Who tested</strong>: an independent laboratory, ideally accredited for biometric testing, rather than the vendor.</li>
  <li><strong>What was tested</strong>: the exact product and version, the devices and operating systems, and whether the test used the vendor's own capture software.</li>
  <li><strong>The attack species</strong>: each PAI species used, the number of attack presentations per species, and how the instruments were produced.</li>
  <li><strong>The results</strong>: APCER per species and BPCER, with numbers of presentations so you can judge statistical confidence.</li>
  <li><strong>The date</strong>: attack techniques evolve quickly, and results from several years ago may not reflect current threats.</li>
</ol>
<p>A summary letter stating only "passed" is not a test report. Ask to see the report, under non-disclosure if necessary.</p>

<h2>The gap: injection attacks</h2>
<p>ISO/IEC 30107-3 is about presentation at the sensor &mdash; things held in front of a camera. It does not cover <strong>injection attacks</strong>, where an attacker bypasses the camera entirely and feeds synthetic or pre-recorded video into the application, using virtual camera software, emulators, modified apps or intercepted network traffic. For remote age assurance on consumer devices, injection is the more serious and more scalable threat, particularly now that convincing face-swap and deepfake tools are freely available.</p>
<p>Defences against injection include device and application integrity checks, detection of virtual cameras and emulators, cryptographic binding between the capture and the server, challenge-response elements that are hard to pre-render, and analysis of the video for artefacts of synthesis. Europe has begun to standardise testing in this area through a CEN technical specification on injection attack detection, and laboratories have started to offer injection testing. Ask vendors specifically what they do about injection and what independent testing supports it.</p>

<h2>Active versus passive liveness</h2>
<p><strong>Active</strong> liveness asks the user to do something: turn their head, blink, follow a dot, read numbers aloud. <strong>Passive</strong> liveness analyses a short capture without asking the user to do anything specific. Passive approaches generally give a smoother experience and better accessibility. Active challenges can add resistance to some replay attacks but can be harder for users with certain disabilities, and pre-rendered deepfakes can increasingly respond to simple prompts. Many modern systems combine a passive analysis with subtle, randomised elements.</p>

<h2>What this means for age assurance</h2>
<p>Ofcom's guidance on highly effective age assurance lists robustness as one of its four criteria, and explicitly mentions resistance to circumvention. France's référentiel expects resistance to photographs, videos, masks and synthetic media. In practice, regulators will expect:</p>
<ul>
  <li>liveness on every selfie-based check, including facial age estimation;</li>
  <li>evidence from independent testing, not vendor assertion;</li>
  <li>attention to injection attacks as well as presentation attacks;</li>
  <li>monitoring and retesting as attack techniques evolve.</li>
</ul>

<h2>Questions to ask your provider</h2>
<ul>
  <li>Which laboratory tested your PAD, to which programme and level, and when? May we see the report?</li>
  <li>What were APCER per species and BPCER, and how many presentations were used?</li>
  <li>Was the tested version the one we will deploy, on devices like our users'?</li>
  <li>How do you detect virtual cameras, emulators and injected video? Has that been independently tested?</li>
  <li>How quickly do you respond to a new attack technique, and how will we be told?</li>
  <li>What do you log about suspected attacks, and can we see attack rates for our traffic?</li>
</ul>

<h2>Takeaways</h2>
<p>Liveness detection is what turns a face-based check from a suggestion into a control. An ISO/IEC 30107-3 test report, properly read, tells you how a system performed against specific attacks in a specific test. It does not tell you about injection attacks, future attacks or your own deployment conditions. Treat it as necessary evidence, not sufficient proof, and keep testing after you go live.</p>
`,
  },
  {
    id: 13,
    title: 'Zero-Knowledge Proofs and Selective Disclosure for Age: Separating the Promise from the Hype',
    excerpt:
      "Zero-knowledge proofs are increasingly cited as the answer to the privacy problem in age verification. They are powerful, but they solve a narrower problem than is often claimed. An engineer's guide to selective disclosure, predicate proofs, unlinkability and what still has to be solved elsewhere.",
    ...AUTHORS.chen,
    date: '2025-07-14',
    readTime: '5 min read',
    category: 'Technology',
    tags: [
      'Zero-knowledge proofs',
      'Selective disclosure',
      'Verifiable credentials',
      'Privacy-enhancing technology',
      'Cryptography',
    ],
    content: `
<p>"Prove you are over 18 without revealing anything else." It is the ideal of privacy-preserving age assurance, and zero-knowledge proofs are frequently presented as the technology that delivers it. They are a remarkable tool and will play an important role. But the phrase "zero-knowledge" is now used loosely, and it is worth being precise about what these techniques achieve, what simpler techniques already achieve, and what neither can solve.</p>

<h2>The starting point: signed credentials</h2>
<p>Most privacy-preserving age assurance schemes start with a <strong>digital credential</strong>: a set of attributes about a person, such as their date of birth, signed by a trusted issuer such as a government or a bank. Anyone with the issuer's public key can check that the attributes are genuine and unaltered. The question is how the holder can use the credential without revealing more than necessary.</p>

<h2>Level 1: selective disclosure</h2>
<p>The simplest improvement is <strong>selective disclosure</strong>. Instead of signing the whole credential as one block, the issuer signs a list of salted hashes, one for each attribute. When presenting the credential, the holder reveals only the attributes they choose, together with the salts, and the verifier can check those attributes against the signed hashes without learning the others.</p>
<p>This is how the two main formats for the EU Digital Identity Wallet work: the ISO/IEC 18013-5 mobile document format and SD-JWT verifiable credentials. For age assurance, issuers can include pre-computed attributes such as "age over 18" alongside the date of birth, so the holder can disclose a simple true or false.</p>
<p>Selective disclosure is not a zero-knowledge proof, but for many age assurance purposes it achieves most of the practical benefit: the verifier learns one attribute and nothing else. Its limitation is <strong>linkability</strong>. The issuer's signature and the hashes are the same every time the credential is presented. Two services that compare notes can tell that the same credential was presented to both.</p>

<h2>Level 2: batch issuance</h2>
<p>A pragmatic answer to linkability is to issue many copies of the credential, each with different salts and a different signature, and to use each copy only once. Presentations then look unrelated to each other. The EU age verification blueprint takes this approach. It works with standard signature algorithms and existing hardware, and it is available today. The costs are operational: the issuer must sign and the wallet must store batches of credentials, and they must be replenished. It also does not hide the issuer's identity or prevent the issuer from recognising credentials it issued, if it were ever shown them.</p>

<h2>Level 3: zero-knowledge proofs</h2>
<p>A <strong>zero-knowledge proof</strong> lets the holder convince the verifier that a statement is true &mdash; "I hold a valid credential from a trusted issuer, and the date of birth in it is more than 18 years before today" &mdash; without revealing the credential, the signature or the date of birth. Each proof is freshly generated and reveals nothing that can be used to link it to other proofs.</p>
<p>Two families of approach are relevant:</p>
<ul>
  <li><strong>Signature schemes designed for zero-knowledge</strong>, such as BBS signatures, allow efficient proofs of possession and selective disclosure with unlinkability built in. Their drawback is that issuers and secure hardware must support the new signature scheme, which most government issuers and phone secure elements do not yet do.</li>
  <li><strong>General-purpose proof systems over existing credentials</strong> prove statements about credentials signed with conventional algorithms, such as the elliptic curve signatures used in mobile driving licences and passports. This avoids changing issuers, at the cost of more complex and computationally heavier proofs. Research and industry implementations have progressed to the point where such proofs can be generated on a phone in reasonable time.</li>
</ul>
<p>Zero-knowledge proofs can also prove <strong>predicates</strong>: not just "this attribute has this value" but "this date is before that date". That removes the need for the issuer to pre-compute "age over" attributes for every threshold.</p>

<h2>What zero-knowledge proofs do not solve</h2>
<p>Here the hype tends to outrun reality. A zero-knowledge proof proves a mathematical statement about data. It cannot, by itself, address the following:</p>
<h3>Who is holding the phone</h3>
<p>A proof shows that <em>a</em> valid credential is present. It does not show that the person using it is the person it was issued to. Credentials are usually bound to a key in the phone's secure hardware, and unlocking that key requires the device's passcode or biometric. That is device binding, not person binding. An adult's unlocked phone in a child's hands will produce a valid proof.</p>
<h3>Whether the issuer checked properly</h3>
<p>A credential is only as trustworthy as the checks performed when it was issued. Zero-knowledge cryptography preserves the issuer's assertion; it does not improve it.</p>
<h3>Revocation</h3>
<p>If a credential is revoked &mdash; because a phone is lost, for example &mdash; the verifier needs to know. Revocation checks that do not reintroduce linkability are an active area of work. Short-lived credentials are a common pragmatic answer.</p>
<h3>Metadata</h3>
<p>A perfectly unlinkable proof delivered over a connection that reveals the user's IP address, device fingerprint or account identifier is not anonymous. The protocol and the surrounding system must both be designed for privacy.</p>
<h3>Coverage</h3>
<p>A credential-based scheme only works for people who have the credential. Until wallets are widely adopted, most users will need other methods.</p>

<h2>Choosing the right level</h2>
<table>
  <thead>
    <tr><th>Technique</th><th>What the verifier learns</th><th>Linkable across services?</th><th>Maturity</th></tr>
  </thead>
  <tbody>
    <tr><td>Full credential</td><td>All attributes</td><td>Yes</td><td>Mature</td></tr>
    <tr><td>Selective disclosure</td><td>Chosen attributes only</td><td>Yes, if the same credential is reused</td><td>Mature; standard in wallet formats</td></tr>
    <tr><td>Selective disclosure with batch issuance</td><td>Chosen attributes only</td><td>No, if each copy is used once</td><td>Deployable now</td></tr>
    <tr><td>Zero-knowledge proof</td><td>Only the truth of the statement</td><td>No</td><td>Emerging; early deployments</td></tr>
  </tbody>
</table>
<p>For most services today, the sensible position is to accept selectively disclosed age-over attributes via standard protocols, prefer providers and wallets that use batch issuance or zero-knowledge proofs, and be ready to accept zero-knowledge presentations as they become available. Insisting on zero-knowledge proofs exclusively would, for now, mean excluding almost every user.</p>

<h2>Where zero-knowledge fits in a wider system</h2>
<p>The cryptography is the easiest part to get right. The harder engineering work is in the system around it:</p>
<ul>
  <li>making the credential easy to obtain, so that coverage grows;</li>
  <li>making presentation smooth on both mobile and desktop;</li>
  <li>binding the result to a session without creating a persistent identifier;</li>
  <li>retaining nothing beyond the fact that a valid proof was received;</li>
  <li>offering other methods to people without a credential.</li>
</ul>

<h2>Takeaways</h2>
<ol>
  <li>Selective disclosure already delivers most of the data-minimisation benefit and is standard in the EU wallet formats.</li>
  <li>Unlinkability is the real advantage of zero-knowledge proofs; batch issuance is a practical interim alternative.</li>
  <li>Zero-knowledge proofs do not solve device sharing, issuer quality, revocation, metadata leakage or coverage.</li>
  <li>Build an age layer that accepts credential-based proofs as one method among several, and be ready to adopt stronger cryptography as the ecosystem matures.</li>
</ol>
`,
  },
  {
    id: 14,
    title: 'Verify Once, Prove Many Times: Double-Blind Architectures and Safe Re-use of Age Checks',
    excerpt:
      'Asking users to prove their age on every site is tiresome; letting a single provider see every site they visit is dangerous. Double-blind designs and tokenised re-use offer a way through. How they work, how they fail, and the design choices that matter.',
    ...AUTHORS.chen,
    date: '2025-07-12',
    readTime: '5 min read',
    category: 'Privacy & UX',
    tags: ['Double anonymity', 'Tokens', 'Re-use', 'Privacy Pass', 'Architecture'],
    content: `
<p>Two complaints dominate user feedback about age checks. The first is repetition: "Why do I have to do this again?" The second is surveillance: "Who now knows that I visited this site?" The two pull in opposite directions. The obvious way to avoid repetition is to remember users, and the obvious way to remember users is to track them. Good architecture can deliver both convenience and privacy, but only with deliberate design choices.</p>

<h2>Three parties, three views</h2>
<p>Most age assurance flows involve three parties: the <strong>user</strong>, the <strong>verifier</strong> that checks age, and the <strong>relying service</strong> that needs the answer. In a naive integration, the relying service redirects the user to the verifier with a parameter identifying itself and the session; the verifier performs the check and redirects back with the result. The verifier therefore learns who the user is, or at least what they look like, and which service they were visiting. Over time, a single verifier serving many services accumulates a record of which identified individuals visited which sites. For adult content, dating or health services, that record is extremely sensitive.</p>
<p>A <strong>double-blind</strong> architecture, which France requires as an option for adult sites under the name "double anonymat", ensures that:</p>
<ul>
  <li>the relying service learns only that the user meets the age threshold; and</li>
  <li>the verifier, which may see identity evidence, does not learn which service the user is visiting.</li>
</ul>

<h2>How to blind the verifier</h2>
<p>Several techniques are used, often in combination.</p>
<h3>Blind tokens</h3>
<p>The user's device generates a random token and "blinds" it mathematically before sending it to the verifier. After the age check, the verifier signs the blinded token. The device removes the blinding and obtains a valid signature on the original token, which the verifier has never seen. When the token is presented to a service, the verifier &mdash; even if shown it &mdash; cannot link it to the check. This is the principle behind the IETF's Privacy Pass protocols, standardised in 2024, which were designed for exactly this kind of anonymous, rate-limited credential.</p>
<h3>Wallet-held credentials</h3>
<p>The verifier issues a signed age credential into a wallet on the user's device, and the user later presents it directly to services. The verifier is not involved at presentation time at all. This is the model of the EU age verification blueprint and the EUDI wallet.</p>
<h3>Intermediaries</h3>
<p>Where neither of the above is possible, an intermediary can sit between the service and the verifier, stripping identifying information about the service before passing the request on. This is weaker, because the intermediary itself sees both sides, but it can be run by a different party with contractual and technical separation.</p>

<h2>The leaks that undo blinding</h2>
<p>Cryptographic blinding is easily undermined by metadata. In reviews of double-blind designs, the most common leaks are:</p>
<ul>
  <li><strong>Referrer headers</strong> that tell the verifier which page the user came from.</li>
  <li><strong>Redirect and callback URLs</strong> that embed the service's domain.</li>
  <li><strong>Timing correlation</strong>: if the verifier completes a check at 21:03:12 and a service receives a token at 21:03:13, the two can be matched by anyone with both logs.</li>
  <li><strong>Network identifiers</strong>: the same IP address seen by both parties.</li>
  <li><strong>Branding and configuration</strong>: a verifier page styled for a particular service, or configured with service-specific settings, reveals which service is involved.</li>
</ul>
<p>Mitigations include neutral verifier pages, referrer policies that suppress origin information, tokens obtained ahead of need and held for later use, and strict separation of logs between parties.</p>

<h2>Tokenised re-use</h2>
<p>Once a user has proved their age, the result can be re-used in several ways, each with different risks.</p>
<table>
  <thead>
    <tr><th>Approach</th><th>Convenience</th><th>Main risk</th></tr>
  </thead>
  <tbody>
    <tr><td>Per-service session or cookie</td><td>Re-use on the same service only</td><td>Long-lived cookies let anyone using the device in</td></tr>
    <tr><td>Account-level flag</td><td>Re-use on the same account across devices</td><td>Account sharing and weak recovery</td></tr>
    <tr><td>Central provider account</td><td>Re-use across services using that provider</td><td>Provider learns where the user goes unless blinded</td></tr>
    <tr><td>Device-held tokens or credentials</td><td>Re-use across services</td><td>Token sharing or resale unless bound to the device</td></tr>
  </tbody>
</table>
<h3>Preventing token sharing</h3>
<p>Any re-usable proof of age is valuable, and a market for sharing or selling them will emerge if it is easy. Defences include:</p>
<ul>
  <li><strong>Device binding</strong>: tokens tied to a key in the device's secure hardware, usable only after the device is unlocked.</li>
  <li><strong>Single use</strong>: each token can be redeemed only once, with double-spending detected by the issuer or service.</li>
  <li><strong>Expiry</strong>: tokens valid for days or weeks, not years, so that leaked tokens age out.</li>
  <li><strong>Rate limits</strong>: a bounded number of tokens per check, so one adult cannot supply a classroom.</li>
</ul>
<p>Regulators have different views on how long a verification can be relied on. France's référentiel expects verification to be renewed rather than relied on indefinitely. Ofcom's guidance allows re-use but expects providers to consider the risk of shared devices and accounts. Design for configurable validity periods.</p>

<h2>Where self-hosting fits</h2>
<p>Running age verification on your own infrastructure, rather than sending users to a shared third-party provider, removes one of the largest privacy risks in the naive model: no external company accumulates a cross-site record of your users. It also keeps biometric processing and identity evidence inside your own security boundary. It is worth being clear, however, about what self-hosting does not achieve. A verifier operated by the service itself is not independent of that service, and France's double-anonymity requirement specifically contemplates a verifier that cannot learn which service the user is visiting. Services subject to that requirement should offer an independent or wallet-based option alongside any self-hosted method. For most other regimes, a self-hosted verifier that retains only the outcome of a check is a strong privacy position.</p>

<h2>Testing your own design</h2>
<p>The most useful test is adversarial. Ask someone who was not involved in the design to act as a curious verifier with access to all of the verifier's logs, and then as a curious service with access to all of the service's logs, and see what each can learn about individual users. Repeat the exercise assuming the two collude. If the answer to "can they tell which identified person visited which service?" is yes, the design is not double-blind, whatever the cryptography suggests.</p>

<h2>Design checklist</h2>
<ol>
  <li>Map what each party learns in your flow, including from metadata, and write it down.</li>
  <li>Remove service identifiers from requests to any third-party verifier; suppress referrers.</li>
  <li>Prefer wallet-held credentials or blind tokens for cross-service re-use.</li>
  <li>Bind re-usable proofs to devices, make them single-use where possible, and set expiry.</li>
  <li>Store only outcomes: "age threshold met, method, time", never evidence.</li>
  <li>Offer an independent or wallet-based option where regulations require double anonymity.</li>
</ol>
<p>Users will tolerate age checks far more readily when they only have to do them occasionally and can trust that doing so does not create a record of where they go. Both are achievable with today's technology.</p>
`,
  },
  {
    id: 15,
    title:
      'ISO/IEC 27566-1 and IEEE 2089.1: The Standards Shaping How Age Assurance Is Specified, Tested and Bought',
    excerpt:
      'Regulators set outcomes; standards describe how to achieve and evidence them. A guide to the international standards for age assurance, how they relate to each other and to regulation, and how to use them in procurement.',
    ...AUTHORS.whitfield,
    date: '2025-07-10',
    readTime: '5 min read',
    category: 'Industry Insights',
    tags: ['Standards', 'ISO/IEC 27566-1', 'IEEE 2089.1', 'Certification', 'Procurement'],
    content: `
<p>Regulators in the UK, France and the EU have been careful not to mandate particular age assurance technologies. Ofcom asks whether a method is technically accurate, robust, reliable and fair; the European Commission asks about accuracy, reliability, robustness, non-intrusiveness and non-discrimination; Arcom sets reliability and privacy requirements. None of them tells you how to measure those properties. That is the job of standards, and in the last two years the standards landscape for age assurance has matured considerably.</p>

<h2>ISO/IEC 27566-1: the international framework</h2>
<p>ISO/IEC 27566 is a multi-part international standard on age assurance systems, developed by the joint ISO and IEC committee responsible for information security, cybersecurity and privacy protection (JTC 1/SC 27). Part 1 sets out the framework: the vocabulary, principles and characteristics that other documents, regulators and buyers can refer to.</p>
<p>Its most useful contributions are conceptual:</p>
<ul>
  <li><strong>A shared vocabulary.</strong> It treats <em>age assurance</em> as the umbrella term and distinguishes <em>age verification</em> (based on verified evidence of date of birth), <em>age estimation</em> (based on inherent characteristics or behaviour, with a margin of error) and <em>age inference</em> (based on facts that imply an age threshold, such as holding a credit card). Regulatory texts have been converging on the same distinctions.</li>
  <li><strong>Characteristics of a system.</strong> It describes properties against which any age assurance system can be assessed, including the confidence it provides in its result, and the privacy and security of its processing.</li>
  <li><strong>Privacy by design.</strong> It emphasises data minimisation, limiting the attributes disclosed to what is necessary &mdash; typically an age threshold rather than a date of birth.</li>
</ul>
<p>Further parts of the standard, covering more detailed technical approaches and evaluation, are being developed. Part 1 alone is not a certification scheme, but it provides a common reference for writing requirements and for comparing vendors' claims.</p>

<h2>IEEE 2089.1: online age verification</h2>
<p>IEEE 2089.1, published in 2024, is a standard for online age verification developed within the IEEE's work on age-appropriate digital services. It sets out processes for establishing and conveying age, and a structured approach to levels of assurance, so that a service can specify the level it needs and a provider can state the level it delivers. It also addresses the handling of age information once established, including privacy, security and the re-use of age attributes.</p>
<p>Where ISO/IEC 27566-1 provides a high-level framework, IEEE 2089.1 is closer to an implementable specification. The two are complementary rather than competing.</p>

<h2>The supporting cast</h2>
<p>Age assurance systems draw on several other standards that buyers should recognise:</p>
<table>
  <thead>
    <tr><th>Standard</th><th>What it covers</th><th>Why it matters for age assurance</th></tr>
  </thead>
  <tbody>
    <tr><td>ISO/IEC 30107-3</td><td>Testing and reporting of biometric presentation attack detection</td><td>Evidence that selfie-based checks resist spoofing</td></tr>
    <tr><td>ISO/IEC 18013-5 and related parts</td><td>Mobile driving licences and mobile documents</td><td>Credential format used by digital identity wallets, including age-over attributes</td></tr>
    <tr><td>ISO/IEC 27001</td><td>Information security management systems</td><td>Baseline assurance about a provider's security practices</td></tr>
    <tr><td>ISO/IEC 29115</td><td>Entity authentication assurance framework</td><td>Background for levels of assurance in identity proofing</td></tr>
    <tr><td>PAS 1296:2018</td><td>BSI code of practice for online age checking</td><td>An early UK reference that informed later work</td></tr>
  </tbody>
</table>
<p>In the UK, the government's digital identity and attributes trust framework provides certification for digital identity services, including age attributes, and the Data (Use and Access) Act 2025 places that framework on a statutory footing. Independent certification schemes for age estimation and verification products, operated by accredited bodies, test products against defined protocols.</p>

<h2>How regulators use standards</h2>
<p>Ofcom's guidance does not require certification against any standard, but it does expect providers to be able to demonstrate that their methods meet its criteria, and it refers to the value of testing and certification in doing so. The European Commission's Article 28 guidelines similarly expect methods to be assessed against defined criteria. In practice, a method certified against a recognised standard by an accredited body is far easier to defend than one supported only by a vendor's own claims.</p>

<h2>Certification, conformity and claims</h2>
<p>Vendors use a range of phrases that sound similar but mean quite different things. It helps to distinguish them:</p>
<ul>
  <li><strong>"Certified to"</strong> should mean that an accredited certification body has assessed the product or organisation against a standard or scheme and issued a certificate with a defined scope and validity period. Ask for the certificate and check the accreditation of the body that issued it.</li>
  <li><strong>"Tested to"</strong> usually means that a laboratory has tested the product using a standard's methodology, as with ISO/IEC 30107-3 presentation attack detection testing. The result is a test report, not a certificate, and its value depends on what was tested and how.</li>
  <li><strong>"Aligned with" or "compliant with"</strong> is typically a self-assessment. It may be accurate, but it is an assertion rather than independent evidence.</li>
</ul>
<p>None of these is worthless, but they carry different weight. When a regulator asks how you know your age assurance is accurate and robust, an accredited certificate or an independent test report is a much stronger answer than a vendor's statement of alignment.</p>

<h2>What standards cannot tell you</h2>
<p>Standards describe how to build and evaluate systems in general. They cannot tell you whether a particular deployment is proportionate to the risks on your service, whether your challenge age is set correctly for your audience, or whether your integration can be bypassed. Those remain judgements you must make and document. A certified component wired into a flow that shows restricted content before the check, or that enforces the result only in the browser, will not be highly effective. Treat standards as evidence about the parts, and keep responsibility for the whole.</p>

<h2>Using standards in procurement</h2>
<p>Standards are most useful when they are written into requirements. A practical approach:</p>
<ol>
  <li><strong>Use the vocabulary.</strong> Specify whether you need verification, estimation or inference, at which threshold, and with what confidence &mdash; in the terms the standards define.</li>
  <li><strong>Ask for evidence against named standards.</strong> For example: independent ISO/IEC 30107-3 testing for liveness, with the report; ISO/IEC 27001 certification for the provider's environment; certification of age estimation accuracy by an accredited body.</li>
  <li><strong>Check scope and dates.</strong> Certificates cover specific products, versions and environments for specific periods. Confirm that what you are buying is what was certified.</li>
  <li><strong>Specify data minimisation.</strong> Require that only the age outcome is returned and that evidence is deleted promptly, consistent with the privacy principles in ISO/IEC 27566-1.</li>
  <li><strong>Plan for interoperability.</strong> Ask about support for standard credential formats and presentation protocols, so that you can accept reusable credentials in future.</li>
</ol>

<h2>The takeaway</h2>
<p>Standards will not make your compliance decisions for you, but they give you a common language and a way to test claims. As regulators move from setting expectations to enforcing them, the ability to point to independent, standards-based evidence will increasingly distinguish defensible age assurance from the merely plausible.</p>
`,
  },
  {
    id: 21,
    title: 'Collect Less, Prove More: Applying GDPR Data Minimisation to Age Assurance',
    excerpt:
      'Age assurance laws require you to check age; data protection law requires you to do it with as little personal data as possible. How the two fit together under the UK GDPR and EU GDPR, with a practical data inventory and retention model.',
    ...AUTHORS.whitfield,
    date: '2025-07-08',
    readTime: '6 min read',
    category: 'Privacy & UX',
    tags: ['GDPR', 'Data minimisation', 'ICO', 'DPIA', 'Biometric data'],
    content: `
<p>A common objection to age assurance is that it forces services to collect more personal data, in tension with data protection law. The objection contains a truth &mdash; any check processes some data &mdash; but it misreads how the law works. Data protection law does not prohibit processing necessary to meet a legal obligation or a legitimate safety goal. It requires that processing to be lawful, fair, transparent and limited to what is necessary. Well-designed age assurance can satisfy all of those requirements, and regulators on both sides of the Channel expect it to.</p>

<h2>The principles that matter most</h2>
<p>Article 5 of the GDPR, which applies in the UK as the UK GDPR, sets out the principles. Four are central to age assurance:</p>
<ul>
  <li><strong>Purpose limitation</strong>: data collected to check age must not be re-used for unrelated purposes, such as marketing or profiling.</li>
  <li><strong>Data minimisation</strong>: data must be adequate, relevant and limited to what is necessary. If a yes/no answer suffices, a date of birth is excessive, and a document image is more excessive still.</li>
  <li><strong>Storage limitation</strong>: data must not be kept for longer than necessary. Evidence used to establish age rarely needs to be kept at all once the result is known.</li>
  <li><strong>Accountability</strong>: you must be able to demonstrate compliance, which means documenting your choices.</li>
</ul>
<p>Article 25 adds the duty of data protection by design and by default: the technical architecture itself should embody these principles. The full text is on <a href="https://eur-lex.europa.eu/eli/reg/2016/679/oj" rel="noopener noreferrer">EUR-Lex</a>, and the ICO's guidance on the UK position is on <a href="https://ico.org.uk/" rel="noopener noreferrer">ico.org.uk</a>.</p>

<h2>Lawful basis</h2>
<p>Every processing operation needs a lawful basis under Article 6. For age assurance, the usual candidates are:</p>
<ul>
  <li><strong>Legal obligation</strong>, where a law requires the check &mdash; for example, where the Online Safety Act and Ofcom's codes require highly effective age assurance, or where licensing law requires age verification for alcohol sales. The obligation must be set out in law applicable to the controller.</li>
  <li><strong>Legitimate interests</strong>, where a service checks age to protect children or enforce its terms without a specific legal requirement. This requires a documented balancing test.</li>
  <li><strong>Consent</strong>, which is less suitable as a general basis where access to a service depends on the check, because consent must be freely given. It may be relevant for optional features, such as saving a reusable credential.</li>
</ul>

<h2>Is it biometric data?</h2>
<p>Article 9 treats biometric data as special category data when it is processed <em>for the purpose of uniquely identifying</em> a natural person. That qualification matters for age assurance:</p>
<ul>
  <li><strong>Photo-ID matching</strong> compares a selfie with a document portrait to confirm they are the same person. That is processing to uniquely identify, and an Article 9 condition is needed in addition to an Article 6 basis. Explicit consent is commonly used; in the UK, certain substantial public interest conditions in the Data Protection Act 2018 may also be relevant. Take advice on which fits your circumstances.</li>
  <li><strong>Facial age estimation</strong> analyses a face to estimate age without identifying the person. The ICO has indicated that where age estimation is not used to uniquely identify, the data may not be special category biometric data. It is still personal data, and still requires care.</li>
</ul>
<p>The practical conclusion is that estimation, where it is appropriate for the risk, carries a lighter data protection burden than identity matching. That is one reason regulators increasingly favour it for moderate-risk use cases.</p>

<h2>Automated decisions</h2>
<p>An age check that automatically denies someone access is an automated decision. Article 22 restricts solely automated decisions with legal or similarly significant effects. Whether refusing access to a particular website reaches that threshold depends on the context, but the safest design offers users a route to contest a decision and have it reviewed, or an alternative method. That is good practice for fairness and accessibility in any case, and it is expected by Ofcom and the European Commission.</p>

<h2>Children's data</h2>
<p>The UK's Age Appropriate Design Code, also known as the Children's code, requires services likely to be accessed by children to take a risk-based approach to recognising the age of their users, so that they can apply the code's standards effectively &mdash; or to apply the standards to all users. It is not a requirement to verify everyone, but where the risks are high, a robust method is expected. In the EU, Article 8 of the GDPR sets the age at which children can consent to information society services themselves at between 13 and 16, depending on the member state; the UK has set it at 13. Age assurance is often the only practical way to apply those rules.</p>
<p>The Digital Services Act adds a relevant provision: Article 28(3) says platforms are not obliged to process <em>additional</em> personal data to assess whether a user is a minor. The Commission's guidelines make clear that this does not excuse platforms from age assurance where the risks require it, but it reinforces the expectation that the data used should be minimal.</p>

<h2>A data inventory for a typical check</h2>
<p>The most useful exercise is to list every data element your age assurance process touches and ask whether it is needed, by whom and for how long.</p>
<table>
  <thead>
    <tr><th>Data element</th><th>Needed?</th><th>Suggested handling</th></tr>
  </thead>
  <tbody>
    <tr><td>Selfie image or video</td><td>Transiently, for estimation or matching</td><td>Process and delete immediately; ideally on device</td></tr>
    <tr><td>Document image</td><td>Transiently, for document checks</td><td>Extract what is needed; delete the image promptly</td></tr>
    <tr><td>Name, document number</td><td>Rarely, for age-only checks</td><td>Do not extract or store unless another legal obligation requires it</td></tr>
    <tr><td>Date of birth</td><td>Only if thresholds vary or re-checks are needed</td><td>Prefer storing the threshold result; if stored, protect it</td></tr>
    <tr><td>Age outcome</td><td>Yes</td><td>Store "threshold met", method, assurance level and time</td></tr>
    <tr><td>Attempt logs</td><td>For fraud and audit</td><td>Keep without images, with a defined retention period</td></tr>
    <tr><td>Device and network metadata</td><td>Limited, for security</td><td>Minimise, and do not share with the verifier unnecessarily</td></tr>
  </tbody>
</table>

<h2>Processors, providers and transfers</h2>
<p>Most services use a third-party provider for at least part of their age assurance. That provider will usually be a processor acting on your instructions, and you need an Article 28 contract that restricts it to your purposes, requires deletion and allows you to audit. Check where processing takes place: transfers of selfies or documents to providers outside the UK or EEA need a transfer mechanism and a transfer risk assessment. Some operators choose to host age assurance within their own infrastructure precisely to avoid these transfers and to keep evidence within their own security boundary.</p>
<p>Be wary of providers that reserve the right to use your users' images to improve their models. That is a separate purpose, with its own lawful basis and transparency requirements, and it is difficult to reconcile with the expectations users have when they take a selfie to prove their age.</p>

<h2>Data protection impact assessment</h2>
<p>Age assurance will almost always require a data protection impact assessment under Article 35: it typically involves innovative technology, may involve biometric data, affects children, and can determine access to a service. A good DPIA for age assurance should cover:</p>
<ol>
  <li>why age assurance is necessary and why the chosen method is proportionate to the risk;</li>
  <li>the data flows, including what each party &mdash; you, your provider, any sub-processors &mdash; sees;</li>
  <li>retention and deletion, with evidence that deletion actually happens;</li>
  <li>accuracy and fairness, including performance across demographic groups;</li>
  <li>security, including protection against breaches of any identity data;</li>
  <li>how users can challenge outcomes and access alternatives;</li>
  <li>transparency: what you tell users and when.</li>
</ol>

<h2>Transparency that works</h2>
<p>Privacy information buried in a policy is not enough. At the point of the check, tell users in a sentence or two what you are going to do, who will process their data, and what you will keep. For example: "We'll use your camera to estimate your age. The image is processed and deleted straight away; we only keep a record that you passed." Clear statements like this also improve completion rates, because uncertainty about what happens to their data is one of the main reasons users abandon age checks.</p>

<h2>Takeaways</h2>
<ul>
  <li>Age assurance and data protection law are compatible; minimisation is the bridge between them.</li>
  <li>Store outcomes, not evidence. Most services never need to keep an image, a document or a name.</li>
  <li>Choose the least intrusive method that meets the risk, and be clear about whether biometric processing is for identification.</li>
  <li>Complete a DPIA, control your processors and transfers, and give users a route to challenge decisions.</li>
</ul>
`,
  },
  {
    id: 22,
    title: 'Designing Age Checks People Actually Finish: UX Patterns That Reduce Drop-off',
    excerpt:
      'Every age check loses some legitimate users. How many depends far more on design than on the method chosen. Where abandonment happens, the patterns that reduce it, and how to measure what is really going on in your funnel.',
    ...AUTHORS.natarajan,
    date: '2025-07-13',
    readTime: '5 min read',
    category: 'Privacy & UX',
    tags: ['UX', 'Conversion', 'Drop-off', 'Onboarding', 'Design patterns'],
    content: `
<p>When teams first add an age check, the conversation tends to focus on the method: facial estimation or document upload, open banking or credit card. Those choices matter, but in usability testing and funnel analysis, the same method can perform very differently depending on how it is introduced, where it sits in the journey and how failures are handled. This article collects the patterns that consistently make the difference.</p>

<h2>Where users drop off</h2>
<p>Abandonment rarely happens at a single point. Breaking the funnel into stages shows where to focus:</p>
<ol>
  <li><strong>The interruption.</strong> Users who did not expect a check leave as soon as it appears. Surprise is the problem, not the check itself.</li>
  <li><strong>The trust moment.</strong> Users hesitate at the point of handing over something personal: opening the camera, photographing a document, entering card details. Unclear explanations and unfamiliar branding increase hesitation.</li>
  <li><strong>Device and permission friction.</strong> Camera permissions denied by habit, desktop users without webcams, and switching from desktop to phone all create exits.</li>
  <li><strong>Capture failures.</strong> Blurry photos, glare on documents, poor lighting and faces out of frame produce rejections that feel arbitrary.</li>
  <li><strong>Waiting.</strong> A spinner with no explanation, particularly after uploading a document, invites users to give up or refresh.</li>
  <li><strong>Failure with no way forward.</strong> A "verification failed" message with no alternative is the most damaging outcome, both for conversion and for trust.</li>
</ol>

<h2>Pattern 1: set expectations early</h2>
<p>Users who know a check is coming are much more likely to complete it. Mention it on landing pages, during sign-up and in app store descriptions. Explain briefly why: "The law requires us to confirm that you're over 18." A plain, factual reason works better than an apologetic one, and far better than none.</p>

<h2>Pattern 2: explain what happens to their data, in one sentence</h2>
<p>At the moment of the check, state what you will do and what you will keep. "Your photo is used to estimate your age and deleted immediately. We only keep a record that you passed." Make it visible without expanding a panel. If a third party performs the check, name it, and make the handover feel like part of your service rather than a redirect to a stranger.</p>

<h2>Pattern 3: offer a choice</h2>
<p>Different people are comfortable with different methods. Some dislike cameras; some will not share banking information; some do not have a credit card. Presenting two or three clearly labelled options, with the fastest one highlighted, lets users pick the route they trust. A good option label says what the user will need and how long it takes: "Take a selfie &middot; about 10 seconds", "Use your bank app", "Scan your passport or driving licence".</p>

<h2>Pattern 4: put the check at the right moment</h2>
<p>Checking age as the very first thing a user does maximises the audience who never see your service. Checking later risks regulatory problems if restricted content is reachable first. The answer depends on what is being restricted:</p>
<ul>
  <li>where the whole service is restricted, the check must come first, so make the landing experience before the check as informative and reassuring as possible;</li>
  <li>where only some content or features are restricted, check at the point the user first tries to access them, when their motivation is highest;</li>
  <li>for age-restricted purchases, check at checkout, once the user has committed to buying.</li>
</ul>

<h2>Pattern 5: make capture forgiving</h2>
<p>Most capture failures are preventable with real-time guidance. For selfies, show a face outline, detect the face live, and prompt with specific instructions &mdash; "move closer", "find better light", "take off your sunglasses" &mdash; before capturing. For documents, detect edges and glare and capture automatically when the image is good, rather than asking users to judge when to press a button. Reject poor frames before submission, not after a long upload.</p>

<h2>Pattern 6: handle desktop gracefully</h2>
<p>Many desktop users have poor webcams or none at all. Offer a QR code hand-off to a phone, with the desktop session updating automatically when the check completes on the phone. Keep the phone step short, branded consistently, and clear about returning to the computer afterwards.</p>

<h2>Pattern 7: design the failure path first</h2>
<p>Every method fails for some legitimate users. Design what happens next as carefully as the happy path:</p>
<ul>
  <li>explain what went wrong in specific, non-judgemental terms;</li>
  <li>offer a retry where it makes sense, with guidance on what to change;</li>
  <li>after a small number of attempts, offer a different method;</li>
  <li>provide a route to help, including for people without standard documents or who cannot use a camera.</li>
</ul>
<p>Do not tell a user who has not been passed by facial estimation that they "look under 18". For a 24-year-old, the message should simply be that this method could not confirm their age and that another quick option is available.</p>

<h2>Pattern 8: do not make people do it twice</h2>
<p>Repetition is one of the biggest sources of frustration. Once a user has proved their age, bind the result to their account, so that they are not asked again on every visit or device, subject to sensible re-verification rules. Where possible, accept reusable credentials from digital identity wallets, so users who have already proved their age elsewhere can do so with a tap.</p>

<h2>Pattern 9: make it accessible</h2>
<p>Accessible design is good design for everyone. Ensure the flow works with screen readers, keyboard navigation and high-contrast modes; avoid time limits where possible; do not rely on colour alone to signal status; and provide alternatives to camera-based methods for users who cannot use them. Accessibility is also something Ofcom has asked providers to consider when choosing age assurance methods.</p>

<h2>Measuring what matters</h2>
<p>You cannot improve what you do not measure. Instrument each stage of the flow and track, at a minimum:</p>
<table>
  <thead>
    <tr><th>Metric</th><th>What it tells you</th></tr>
  </thead>
  <tbody>
    <tr><td>Start rate</td><td>How many users who see the check begin it; reflects expectations and trust</td></tr>
    <tr><td>Method selection</td><td>Which options users choose; informs defaults and ordering</td></tr>
    <tr><td>Completion rate by method</td><td>Where each method loses users</td></tr>
    <tr><td>Capture failure rate</td><td>Quality of guidance and device compatibility</td></tr>
    <tr><td>Fallback rate</td><td>How many users need a second method, and whether they finish it</td></tr>
    <tr><td>Time to complete</td><td>Friction, by method and device</td></tr>
    <tr><td>Support contacts</td><td>Where the journey leaves people stuck</td></tr>
  </tbody>
</table>
<p>Segment by device type, platform and user age band where you can do so without collecting extra personal data. A method that works well on modern phones may fail badly on older devices or desktops.</p>

<h2>Test with real users</h2>
<p>Run moderated usability sessions with people who resemble your audience, including people in their late teens and early twenties, older users, people with disabilities and people using older phones. Watch where they hesitate. The reasons for abandonment are often obvious in a session and invisible in analytics.</p>

<h2>Takeaways</h2>
<ul>
  <li>Most drop-off is caused by surprise, mistrust, capture problems and dead ends, not by the existence of a check.</li>
  <li>Set expectations, explain data handling in one sentence, and offer a choice of methods.</li>
  <li>Guide capture in real time and design failure paths as carefully as success paths.</li>
  <li>Remember the result, accept reusable credentials, and measure every stage.</li>
</ul>
`,
  },
  {
    id: 23,
    title: 'No Passport, No Problem? Building Inclusive Age Assurance and Fallbacks for Adults Without ID',
    excerpt:
      'A meaningful minority of adults have no passport or driving licence, no credit card or no smartphone, and some cannot use camera-based checks at all. Regulators expect age assurance to work for them too. How to design fallbacks that are inclusive without becoming loopholes.',
    ...AUTHORS.natarajan,
    date: '2025-07-14',
    readTime: '5 min read',
    category: 'Privacy & UX',
    tags: ['Accessibility', 'Inclusion', 'Fallback', 'Equality Act', 'WCAG'],
    content: `
<p>Age assurance is usually designed around a typical user: an adult with a recent smartphone, a passport or driving licence, a bank account and good eyesight. Many adults do not fit that picture. If the only routes through your age check require one of those things, you will exclude lawful adult users, risk discrimination claims and fall short of regulators' expectations. Inclusion has to be designed in from the start.</p>

<h2>Who gets left out</h2>
<p>Consider the groups who commonly struggle with standard methods:</p>
<ul>
  <li><strong>Adults without photo ID.</strong> Research carried out ahead of the introduction of voter identification in Great Britain suggested that a few per cent of the electorate had no recognised form of photo ID. They are disproportionately older, on lower incomes or disabled.</li>
  <li><strong>Adults without credit histories or credit cards</strong>, including many younger adults, people new to the country and people who avoid credit.</li>
  <li><strong>People without a smartphone</strong>, or with an older device whose camera or operating system is not supported.</li>
  <li><strong>Disabled people</strong>, including blind and partially sighted users who may find camera framing difficult, people with motor impairments who cannot hold a phone steady or perform gestures, and people with cognitive impairments who find complex multi-step journeys hard.</li>
  <li><strong>People with facial differences</strong>, whose appearance may affect facial estimation or matching.</li>
  <li><strong>People with foreign documents</strong> that a provider does not support.</li>
  <li><strong>Young adults</strong> near the threshold, who will be referred more often by estimation methods and are less likely to have credit cards.</li>
</ul>

<h2>What the rules say</h2>
<p>In the UK, the Equality Act 2010 requires service providers to make reasonable adjustments for disabled people and prohibits indirect discrimination. Ofcom's guidance on highly effective age assurance asks providers to consider accessibility when choosing methods, including offering alternatives. The European Commission's Article 28 guidelines recommend offering more than one method and a means of redress. The Web Content Accessibility Guidelines (WCAG) 2.2 at level AA are the widely used benchmark for the accessibility of digital interfaces, and the European Accessibility Act applies accessibility requirements to a range of consumer services from June 2025.</p>

<h2>Principle 1: at least two independent routes</h2>
<p>The single most effective step is to offer at least two methods that rely on <em>different</em> things. Facial estimation and photo-ID matching both need a camera; photo-ID matching and a digital identity app may both need a passport or driving licence. A good pair covers different gaps: for example, facial age estimation, which needs no documents, alongside open banking or a mobile operator check, which need no camera.</p>

<h2>Principle 2: accessible interfaces for every method</h2>
<ul>
  <li><strong>Screen readers.</strong> Every instruction, status and error must be announced. Camera guidance should be conveyed by audio and haptic cues, not only visual overlays.</li>
  <li><strong>Automatic capture.</strong> Capture the image automatically when quality is good, rather than requiring a precisely timed button press.</li>
  <li><strong>No unnecessary gestures.</strong> Active liveness challenges such as head turns can be difficult for some users; passive liveness is generally more inclusive.</li>
  <li><strong>Time.</strong> Avoid short timeouts, or allow them to be extended.</li>
  <li><strong>Plain language.</strong> Use short sentences and one instruction per step.</li>
  <li><strong>Contrast and scaling.</strong> Support large text and high-contrast modes without breaking the layout.</li>
</ul>

<h2>Principle 3: an assisted route</h2>
<p>Some users will not be able to complete any automated method. A human-assisted route &mdash; such as a video call with a trained agent who checks a document, or a manual review of documents that automated systems do not support &mdash; closes the remaining gap. It is more expensive per check, but it will be used by a small proportion of users, and its existence is often what makes the overall approach defensible. Make sure the assisted route applies the same standard of assurance, with appropriate anti-fraud controls, so that it does not become the easiest way for minors to get through.</p>

<h2>Principle 4: fallbacks are not loopholes</h2>
<p>Every alternative route must itself be highly effective. A fallback that accepts self-declaration, a photo of any document without a liveness check, or a parent's word is a loophole that children will find quickly. When designing a fallback, ask: would a determined 15-year-old find this easier than the main route? If so, redesign it.</p>

<h2>Principle 5: respectful failure messages</h2>
<p>Being told you have failed an age check is unpleasant for an adult, particularly if it happens repeatedly or appears related to appearance or disability. Failure messages should be neutral and forward-looking: "We couldn't confirm your age this way. Here are other options." Avoid language that implies suspicion, and never tell users what age they were estimated to be.</p>

<h2>Principle 6: test with the people who struggle</h2>
<p>Accessibility audits against WCAG are necessary but not sufficient. Include disabled people, older users and people without standard documents in usability testing. Track completion rates by method and device, and review support contacts for patterns that suggest a group is being excluded.</p>

<h2>A worked example: three routes</h2>
<p>Consider a service with an 18+ gate and a broad UK audience. A design that covers most of the groups above might look like this:</p>
<ol>
  <li><strong>Facial age estimation</strong> as the default, with passive liveness, automatic capture and audio guidance. It needs no documents or credit history, and most clearly adult users complete it in seconds.</li>
  <li><strong>A camera-free alternative</strong>, such as open banking, a mobile network operator check or a digital identity app, presented alongside the default rather than hidden behind a failure. Users who cannot or prefer not to use a camera choose it from the start.</li>
  <li><strong>An assisted route</strong>, reached from a clearly signposted "other ways to verify" link, in which a trained agent checks accepted documents &mdash; including those automated systems handle poorly &mdash; over a video call or by secure upload with manual review.</li>
</ol>
<p>Each route has its own coverage gaps, but together they leave very few adults without a way through. The assisted route will be used rarely, so its cost per check matters less than its existence. Monitor which routes users choose and where they abandon, and adjust the presentation if one group is consistently struggling.</p>

<h2>A fallback design checklist</h2>
<ol>
  <li>Offer at least two methods that rely on different things.</li>
  <li>Meet WCAG 2.2 AA across every step, including third-party components.</li>
  <li>Prefer passive liveness and automatic capture.</li>
  <li>Provide an assisted route with the same level of assurance.</li>
  <li>Write neutral, helpful failure messages with clear next steps.</li>
  <li>Test with diverse users, and monitor completion by group where you can do so without collecting extra data.</li>
</ol>
<p>An age check that works only for the well-documented majority is not just unfair; it is fragile. Building for the edges makes the whole system stronger.</p>
`,
  },
  {
    id: 24,
    title: 'What Age Assurance Really Costs: Per-Check Fees, Drop-off and the Hidden Line Items',
    excerpt:
      'Per-check pricing is the number everyone asks about, but it is rarely the largest cost of age assurance. A framework for modelling the total cost of compliance, including conversion loss, support, fallbacks and governance, with a worked illustration.',
    ...AUTHORS.okafor,
    date: '2025-07-09',
    readTime: '6 min read',
    category: 'Business Strategy',
    tags: ['Costs', 'Pricing', 'ROI', 'Conversion', 'Procurement'],
    content: `
<p>When operators first budget for age assurance, the question is almost always "how much per check?" It is a reasonable question, and the answer varies widely by method and volume. But in the cost models we build with operators, per-check fees are seldom the largest line. Lost conversions, support, fallback handling and governance frequently outweigh them. This article sets out a framework for modelling the total cost, so that decisions about methods and providers are made on the numbers that matter.</p>

<h2>The components of total cost</h2>
<p>A complete model has six components:</p>
<ol>
  <li><strong>Per-check fees</strong> paid to providers, or the equivalent running costs of a self-hosted system.</li>
  <li><strong>Integration and engineering</strong>: initial build, ongoing maintenance, monitoring and updates.</li>
  <li><strong>Conversion impact</strong>: revenue lost from legitimate adult users who abandon the check.</li>
  <li><strong>Fallbacks and support</strong>: assisted verification, manual reviews and customer service contacts.</li>
  <li><strong>Governance and compliance</strong>: legal advice, data protection impact assessments, audits, certification and regulatory engagement.</li>
  <li><strong>Risk costs</strong>: the expected cost of fraud, data breaches and regulatory penalties, which good age assurance reduces but does not eliminate.</li>
</ol>

<h2>1. Per-check fees: how pricing works</h2>
<p>Commercial pricing varies so much by volume, contract length and bundle that precise figures are of limited use, but the relative pattern is consistent:</p>
<ul>
  <li><strong>Data-based checks</strong> &mdash; mobile operator lookups, email-based estimation, credit card validation &mdash; are generally at the low end, often a few pence or cents per check at scale.</li>
  <li><strong>Facial age estimation</strong> typically sits in a similar low band, sometimes somewhat higher, reflecting compute and liveness costs.</li>
  <li><strong>Document verification with face matching and liveness</strong> commonly costs several times more than estimation, because of the processing involved and the higher assurance it provides.</li>
  <li><strong>Human-assisted checks</strong> are the most expensive per transaction, reflecting staff time.</li>
</ul>
<p>Watch the details of the pricing model:</p>
<ul>
  <li>Are you charged per <em>attempt</em> or per <em>successful</em> check? Retries can multiply costs under per-attempt pricing.</li>
  <li>Are there minimum monthly commitments or annual minimums?</li>
  <li>Are liveness, document fraud checks and data lookups priced separately from the core check?</li>
  <li>How does pricing change at volume tiers, and what happens if you exceed a tier?</li>
  <li>Are there charges for storage, reporting or support?</li>
</ul>
<p>Self-hosted systems replace per-check fees with licence, infrastructure and operational costs. At high volumes, the marginal cost per check can fall substantially; at low volumes, fixed costs dominate.</p>

<h2>2. Integration and engineering</h2>
<p>A basic integration with a hosted provider can be completed quickly. A production-grade one takes longer: server-side enforcement of results, session binding, handling of existing users, multiple methods and fallbacks, monitoring, accessibility, localisation and testing across devices. Budget for ongoing maintenance too: providers update their software, regulations change and new methods, such as digital identity wallets, need integrating.</p>

<h2>3. Conversion impact: usually the biggest number</h2>
<p>Every age check loses some legitimate users. The cost of that loss is:</p>
<blockquote>adult users who abandon &times; the value each would have generated</blockquote>
<p>Three points make this line tricky to model:</p>
<ul>
  <li><strong>Not every non-completer is a loss.</strong> Some users who fail or abandon are minors, correctly excluded. Counting them as lost revenue overstates the cost.</li>
  <li><strong>The counterfactual is changing.</strong> When competitors are subject to the same requirements, some users who would once have gone elsewhere will complete the check. Conversely, non-compliant competitors may temporarily attract users who avoid checks &mdash; a risk that enforcement is designed to remove.</li>
  <li><strong>Design matters more than method.</strong> The same method can have very different completion rates depending on how it is presented. Investment in UX often has a better return than switching provider.</li>
</ul>

<h2>4. Fallbacks and support</h2>
<p>Users who cannot use the primary method need a fallback, and some need help. Model the proportion of users who will be referred to each fallback, the cost of each, and the volume of support contacts. Support contacts relating to age checks tend to be concentrated at launch and after changes, so plan for a peak.</p>

<h2>5. Governance and compliance</h2>
<p>These costs are easy to forget and hard to avoid: legal advice on each jurisdiction, a DPIA and its periodic review, vendor due diligence, independent testing or certification, records for the regulator, and staff time responding to regulatory requests. They are largely fixed, so they weigh proportionally more on smaller services.</p>

<h2>6. Risk costs</h2>
<p>Finally, consider the cost of things going wrong. Under the Online Safety Act, fines can reach &pound;18 million or 10% of qualifying worldwide revenue. Data breaches involving identity documents or facial images carry regulatory, legal and reputational costs. Fraud &mdash; for example, chargebacks from minors using parents' cards &mdash; has its own cost. A more robust approach lowers these expected costs, which should be set against higher upfront spending.</p>

<h2>A worked illustration</h2>
<p>The following example uses <em>purely illustrative</em> numbers to show how the components interact. They are not benchmarks; substitute your own.</p>
<p>Assume 100,000 users reach the age check in a month. The service uses facial age estimation as the primary method, at an illustrative &pound;0.10 per attempt, with document verification as a fallback at an illustrative &pound;0.80 per attempt. Support contacts cost &pound;4 each.</p>
<table>
  <thead>
    <tr><th>Stage</th><th>Users</th><th>Illustrative cost</th></tr>
  </thead>
  <tbody>
    <tr><td>Reach the age check</td><td>100,000</td><td>&mdash;</td></tr>
    <tr><td>Start facial age estimation</td><td>90,000</td><td>&pound;9,000</td></tr>
    <tr><td>Pass estimation</td><td>67,500</td><td>&mdash;</td></tr>
    <tr><td>Referred or failed, and start document check</td><td>15,000</td><td>&pound;12,000</td></tr>
    <tr><td>Pass document check</td><td>12,750</td><td>&mdash;</td></tr>
    <tr><td>Support contacts</td><td>1,000</td><td>&pound;4,000</td></tr>
    <tr><td><strong>Total verified adults</strong></td><td><strong>80,250</strong></td><td><strong>&pound;25,000</strong></td></tr>
  </tbody>
</table>
<p>In this illustration, provider fees and support come to about &pound;0.31 per verified adult. But 19,750 users did not complete. If, say, a quarter of them were minors and the remainder were adults worth an average of &pound;5 a month to the service, the conversion cost is around &pound;74,000 a month &mdash; roughly three times the direct costs. Improving the estimation pass rate for adults, or the proportion of referred users who try the fallback, would have a far greater effect on total cost than negotiating a lower per-check fee.</p>

<h2>Launch costs versus steady state</h2>
<p>Budgets frequently underestimate the first few months. At launch, three things happen at once: every existing user who needs access to restricted content must be checked, not just new sign-ups; support contacts spike as users meet an unfamiliar process; and the team is still tuning thresholds, messages and fallbacks. A service with a large existing user base may process several months' worth of steady-state checks in its first weeks.</p>
<p>Two approaches soften the peak. The first is staging: re-verify existing users in waves, starting with those who use the highest-risk features, so that support capacity and provider limits are not overwhelmed. The second is prompting at the point of need rather than all at once: ask existing users to verify when they next try to reach restricted content, which spreads the load naturally and means dormant accounts never generate a cost. Once the existing base has been worked through, the steady state is driven by new users, periodic re-verification and re-checks triggered by risk signals, and is far easier to forecast.</p>
<p>It is also worth separating two unit costs that are often confused: cost per verified user, which is what providers quote and what the worked illustration above calculates, and cost per active user per year, which is what finance teams usually need. A user verified once and retained for three years has a very different annual cost from one who churns after a month and is replaced by a new user who must be checked again.</p>

<h2>How to reduce total cost</h2>
<ul>
  <li><strong>Order methods by cost and success rate.</strong> Use inexpensive, low-friction methods first and reserve expensive checks for those who need them.</li>
  <li><strong>Tune thresholds with evidence.</strong> An unnecessarily high challenge age sends more adults to expensive fallbacks. An unnecessarily low one creates regulatory risk. Get the evidence.</li>
  <li><strong>Re-use results.</strong> Every repeat check on the same user is a cost. Bind results to accounts and accept reusable credentials.</li>
  <li><strong>Invest in UX.</strong> Capture guidance, clear explanations and good failure paths improve completion at no per-check cost.</li>
  <li><strong>Negotiate the model, not just the price.</strong> Per-successful-check pricing, sensible retry policies and flexibility on minimums often matter more than the headline rate.</li>
  <li><strong>Consider the deployment model at scale.</strong> At high and predictable volumes, self-hosted or appliance-based options can change the economics.</li>
</ul>

<h2>Takeaways</h2>
<p>Per-check fees are visible and easy to compare, so they attract attention. The larger costs &mdash; lost conversions, fallbacks, support and governance &mdash; are less visible but usually decisive. Build a model with all six components, use your own data wherever possible, and make method and provider decisions on the total, not the headline price.</p>
`,
  },
  {
    id: 31,
    title: 'Build, Buy or Self-Host? Choosing a Deployment Model for Age and Identity Verification',
    excerpt:
      'Building in-house, calling a hosted API and running a self-hosted appliance each carry different costs, risks and responsibilities. A decision framework covering accountability, data residency, model maintenance, security testing and cost at scale.',
    ...AUTHORS.okafor,
    date: '2025-07-12',
    readTime: '5 min read',
    category: 'Business Strategy',
    tags: ['Build vs buy', 'Self-hosting', 'Vendor selection', 'Data residency', 'Architecture'],
    content: `
<p>Once an organisation has decided it needs age assurance, the next decision is how to deliver it. There are three broad models &mdash; build it yourself, buy it as a hosted service, or run a packaged system on your own infrastructure &mdash; plus hybrids. Each can be the right answer. The wrong answer is usually the one chosen by default, without examining what the organisation is actually taking on.</p>

<h2>One thing that does not change: accountability</h2>
<p>Whatever model you choose, regulatory accountability stays with you. Under the Online Safety Act, the Digital Services Act, France's SREN framework and US state laws, the duty falls on the service, not its supplier. Ofcom will ask you, not your vendor, to explain why your age assurance is highly effective. A deployment model changes who does the work, not who answers for the outcome. That means you need enough in-house understanding to specify, evaluate and monitor whatever you use.</p>

<h2>Model 1: build in-house</h2>
<p>Building means developing your own capture interfaces, estimation or document models, liveness detection and decision logic.</p>
<h3>When it can make sense</h3>
<ul>
  <li>You operate at very large scale, have unusual requirements and already employ specialist computer vision, security and biometrics teams.</li>
  <li>Age assurance is strategically central to your product, rather than a compliance function.</li>
</ul>
<h3>What you take on</h3>
<ul>
  <li>Training data with reliably verified ages across the demographic range of your users, and a lawful basis for using it.</li>
  <li>Ongoing accuracy and fairness evaluation, with evidence a regulator will accept.</li>
  <li>Presentation attack and injection attack defence against a fast-moving adversary, and independent testing.</li>
  <li>Document coverage and fraud detection across many countries and document types, if you verify documents.</li>
  <li>The opportunity cost of specialist staff who could be working on your core product.</li>
</ul>
<p>For most organisations, building the core components from scratch is not a realistic option. Building the orchestration layer &mdash; the logic that chooses methods, enforces results and manages fallbacks &mdash; is a different matter, and many teams do this regardless of where the checks themselves run.</p>

<h2>Model 2: buy a hosted service</h2>
<p>The most common model: your application sends users, or their data, to a provider's cloud service, which performs the check and returns a result.</p>
<h3>Advantages</h3>
<ul>
  <li>Fast to integrate, with no infrastructure to run.</li>
  <li>The provider maintains models, liveness and document coverage, and carries the cost of testing and certification.</li>
  <li>Pricing scales with usage, which suits uncertain or low volumes.</li>
</ul>
<h3>Trade-offs</h3>
<ul>
  <li><strong>Data leaves your environment.</strong> Selfies and documents are processed by a third party, possibly in another jurisdiction, which brings processor contracts, transfer assessments and breach exposure.</li>
  <li><strong>Cross-site visibility.</strong> A provider serving many services can, unless the architecture prevents it, observe which users visit which services.</li>
  <li><strong>Dependency.</strong> Outages, price changes or a provider's exit affect your service directly. Switching providers can be costly if the integration is tightly coupled.</li>
  <li><strong>Cost at scale.</strong> Per-check fees that are negligible at low volume can become significant at high volume.</li>
</ul>

<h2>Model 3: self-host a packaged system</h2>
<p>A third option is to run a packaged verification system &mdash; software or an appliance, with models and liveness included &mdash; on infrastructure you control, whether on-premises or in your own cloud account.</p>
<h3>Advantages</h3>
<ul>
  <li><strong>Data stays in your boundary.</strong> Images and documents never leave your infrastructure, which simplifies data protection analysis and removes international transfers.</li>
  <li><strong>No third-party cross-site record.</strong> No external company learns which of your users passed which check.</li>
  <li><strong>Predictable cost.</strong> Licence and infrastructure costs replace per-check fees, which can be advantageous at high volume.</li>
  <li><strong>Control.</strong> You choose when to upgrade, how to configure thresholds and how to integrate with your identity systems, for example via standard protocols such as OpenID Connect.</li>
</ul>
<h3>Trade-offs</h3>
<ul>
  <li><strong>You run it.</strong> Capacity planning, availability, patching and security monitoring are your responsibility.</li>
  <li><strong>Updates must be applied.</strong> Model and liveness updates are only effective once you deploy them. A self-hosted system left unpatched for a year is exposed to attacks developed in that year.</li>
  <li><strong>Independence.</strong> Some regimes, such as France's double-anonymity requirement for adult sites, contemplate verification by a party independent of the service. A self-hosted system may need to be complemented by an independent or wallet-based option.</li>
  <li><strong>Hardware.</strong> Estimation and liveness models run best with suitable compute; size it for peak demand.</li>
</ul>

<h2>Hybrids</h2>
<p>Many organisations combine models: a self-hosted system for the high-volume primary method, with a hosted provider for document types or jurisdictions it does not cover; or a hosted service for launch, with a plan to bring processing in-house as volume grows. An orchestration layer that abstracts the provider makes these combinations &mdash; and future changes &mdash; much easier.</p>

<h2>Comparing costs over three years</h2>
<p>Deployment decisions are often made on year-one costs, which flatters hosted services with low set-up costs and penalises options with higher initial investment. A fairer comparison models three years at low, expected and high volumes, and includes:</p>
<ul>
  <li>per-check or licence fees, including minimum commitments and overage pricing;</li>
  <li>infrastructure, including compute for estimation and liveness models, sized for peak demand rather than average;</li>
  <li>engineering for integration and ongoing maintenance, including the orchestration layer;</li>
  <li>operations: monitoring, on-call cover, patching and incident response;</li>
  <li>compliance: data protection assessments, transfer assessments, vendor audits and certification;</li>
  <li>switching costs, should you need to change provider or model later.</li>
</ul>
<p>In most models we have seen, hosted services are cheaper at low volumes and self-hosted options become competitive as volumes rise, with the crossover point depending heavily on the methods used and on how much operational capability the organisation already has.</p>

<h2>A decision framework</h2>
<table>
  <thead>
    <tr><th>Factor</th><th>Favours hosted</th><th>Favours self-hosted</th></tr>
  </thead>
  <tbody>
    <tr><td>Volume</td><td>Low or unpredictable</td><td>High and steady</td></tr>
    <tr><td>Data sensitivity</td><td>Moderate</td><td>High: adult content, health, finance, children</td></tr>
    <tr><td>Data residency</td><td>Flexible</td><td>Strict requirements or regulator expectations</td></tr>
    <tr><td>Operations capability</td><td>Limited</td><td>Established platform and security teams</td></tr>
    <tr><td>Time to launch</td><td>Very short</td><td>Weeks to months acceptable</td></tr>
    <tr><td>Document coverage needed</td><td>Global, many document types</td><td>Focused on a few markets or on estimation</td></tr>
  </tbody>
</table>

<h2>Questions to ask whichever route you take</h2>
<ol>
  <li>What evidence will we have of accuracy, fairness and attack resistance, and who produced it?</li>
  <li>Where is each piece of personal data processed, and for how long does it exist?</li>
  <li>How quickly do security and model updates reach production?</li>
  <li>How would we switch to another provider or model if we needed to?</li>
  <li>What is the total cost over three years at low, expected and high volumes?</li>
</ol>

<h2>The takeaway</h2>
<p>There is no universally correct deployment model. Hosted services offer speed and simplicity; self-hosting offers control, data locality and favourable economics at scale; building the core components is rarely justified. Decide on the basis of your volumes, data sensitivity and operational capability, keep the orchestration layer in your own hands, and remember that accountability for the result stays with you either way.</p>
`,
  },
  {
    id: 32,
    title: 'Industry Guide: Age Assurance for Video Games, Voice Chat and Online Gambling',
    excerpt:
      'Games sit at the intersection of child safety, consumer protection and, sometimes, gambling regulation. A guide for studios and operators on where age assurance is required, where it is expected, and how to apply it feature by feature rather than at the front door.',
    ...AUTHORS.ellison,
    date: '2025-07-10',
    readTime: '5 min read',
    category: 'Industry Guides',
    tags: ['Gaming', 'Gambling', 'Loot boxes', 'Voice chat', 'COPPA'],
    content: `
<p>Few sectors have a user base as age-diverse as games. The same title may be played by a ten-year-old on a family tablet and a forty-year-old with a credit card attached to their account. Some games include open voice chat with strangers; some include paid randomised rewards; some are gambling products in all but name, and some are regulated gambling. Age assurance in games is therefore less about a single gate and more about matching features to players.</p>

<h2>Three regulatory tracks</h2>
<h3>1. Gambling</h3>
<p>Regulated online gambling has had strict age verification requirements for years. In Great Britain, the Gambling Commission has since 2019 required operators to verify customers' age before they can deposit, gamble or play free-to-play versions of gambling games. Remote gambling operators typically combine data checks against credit reference and other databases with document verification where data checks fail. Many EU and US jurisdictions apply similar rules. For these operators, age assurance is mature; the challenge is doing it with less friction and integrating it with broader customer due diligence.</p>
<h3>2. Online safety</h3>
<p>Games with user-to-user functionality &mdash; text or voice chat, user-generated content, player profiles, shared worlds &mdash; are user-to-user services under the UK's Online Safety Act. If they are likely to be accessed by children, which many are, the children's safety duties apply from 25 July 2025. The key risks Ofcom highlights for gaming include contact between adults and children, bullying and harassment, and exposure to harmful content in user-generated material. The EU's Digital Services Act applies to games that qualify as online platforms, and the Commission's 2025 guidelines on protecting minors address issues directly relevant to games, including virtual currencies, gambling-like mechanics and features that encourage excessive play.</p>
<h3>3. Consumer and privacy protection</h3>
<p>In the US, the Children's Online Privacy Protection Act governs data collection from under-13s, and the Federal Trade Commission has been active in the sector: its 2022 settlement with Epic Games over Fortnite included a substantial civil penalty for COPPA violations, alongside refunds related to purchase design. In the UK, the ICO's Children's code applies to games likely to be accessed by children. Paid loot boxes remain outside gambling law in the UK, but industry principles published in 2023 commit to technical controls preventing under-18s from buying them without the consent of a parent or guardian &mdash; which requires some knowledge of the player's age.</p>

<h2>Feature-level age assurance</h2>
<p>Gating an entire game behind a strong age check is rarely proportionate, and for all-ages titles it makes no sense. A more effective approach is to identify the features that carry risk and apply age assurance to those:</p>
<table>
  <thead>
    <tr><th>Feature</th><th>Main risk</th><th>Suggested approach</th></tr>
  </thead>
  <tbody>
    <tr><td>Open voice or text chat with strangers</td><td>Contact between adults and children; harassment</td><td>Default off or friends-only for children; age assurance to unlock open chat</td></tr>
    <tr><td>User-generated content browsing</td><td>Exposure to harmful content</td><td>Filtered content for children; stronger moderation for child-facing spaces</td></tr>
    <tr><td>Paid loot boxes and randomised purchases</td><td>Gambling-like harm; spending</td><td>Parental consent or block for under-18s</td></tr>
    <tr><td>Real-money gambling or gambling-style games</td><td>Gambling harm; legal requirement</td><td>Full age verification before deposit or play</td></tr>
    <tr><td>Adult-rated content modes</td><td>Exposure to age-inappropriate content</td><td>Age assurance to unlock</td></tr>
    <tr><td>Spending limits and payments</td><td>Unauthorised or excessive spending</td><td>Parental controls; age-based defaults</td></tr>
  </tbody>
</table>

<h2>Using the signals you already have</h2>
<p>Games often have more age information than they realise:</p>
<ul>
  <li><strong>Platform accounts.</strong> Console and PC platform accounts often carry age and family settings. Where platform APIs expose this, use it &mdash; but understand how the platform established the age before relying on it for high-risk features.</li>
  <li><strong>Payment information.</strong> A credit card on file is an age signal in some markets, though debit and prepaid cards are not.</li>
  <li><strong>App store signals.</strong> New laws in Utah and Texas will require app stores to share age categories with developers from 2026.</li>
</ul>
<p>Self-declared age at account creation is still useful for setting initial defaults, but it is not sufficient for unlocking high-risk features in the UK or EU.</p>

<h2>Choosing methods for players</h2>
<p>Players expect to get into a game quickly. Methods that suit the sector include:</p>
<ul>
  <li><strong>Facial age estimation</strong>, which is quick and needs no documents, well suited to unlocking chat or mature content for clearly adult players;</li>
  <li><strong>Reusable credentials</strong>, where players have verified their age with a platform or a digital identity wallet;</li>
  <li><strong>Document verification</strong> as a fallback, and as the norm for real-money gambling;</li>
  <li><strong>Parental verification</strong> for consent flows, confirming that the consenting person is an adult.</li>
</ul>
<p>Young adults are a large share of many games' audiences and are the group most likely to be referred by estimation methods. Make the fallback fast.</p>

<h2>Parental consent that means something</h2>
<p>Many games rely on parental consent for younger players, whether to satisfy COPPA, to unlock spending or to enable social features. A consent flow is only as good as its confirmation that the consenting person is an adult with authority over the child. A checkbox reading "I am the parent" does not achieve that. Stronger approaches include a small card transaction, a facial age estimation step for the parent, or a check through a digital identity or platform family account. Keep the parent's verification separate from the child's account data, record what was consented to and when, and make it easy for parents to review and withdraw consent later.</p>

<h2>Cross-platform play and shared devices</h2>
<p>Cross-platform titles complicate matters. A player may have a console account with family settings, a mobile account with none and a PC account created years ago with a made-up date of birth. Where you maintain your own account system across platforms, apply the most protective age status known for the player until a stronger check establishes otherwise. Shared family consoles are common, so features unlocked by an adult's verification should be tied to that adult's profile rather than to the device, and high-risk features should prompt for a profile switch or re-authentication.</p>

<h2>Safety by default for younger players</h2>
<p>Age assurance only matters if it changes the experience. For players identified as children, regulators expect safer defaults: restricted contact from strangers, filtered chat, no public profiles, limits on spending, and tools to block, mute and report. Time and spending reminders are increasingly expected, and the EU guidelines specifically caution against features that encourage compulsive play.</p>

<h2>Checklist for studios and operators</h2>
<ol>
  <li>Inventory features and classify their risks to children.</li>
  <li>Decide which features require age assurance and at what level.</li>
  <li>Use existing platform and app store signals where reliable, and add checks where they are not.</li>
  <li>Apply safe defaults for children and unlock features for verified adults.</li>
  <li>For real-money gambling, apply full verification before any deposit or play.</li>
  <li>Keep data minimal: game publishers do not need players' documents to unlock voice chat.</li>
</ol>
`,
  },
  {
    id: 33,
    title: 'Industry Guide: Age Checks for Alcohol Delivery and Age-Restricted E-commerce',
    excerpt:
      'Selling alcohol, vapes, knives and other age-restricted products online means checking age twice: when the order is placed and when it is handed over. A practical guide to the UK legal framework and a layered approach that satisfies Trading Standards without wrecking checkout conversion.',
    ...AUTHORS.ellison,
    date: '2025-07-11',
    readTime: '5 min read',
    category: 'Industry Guides',
    tags: ['E-commerce', 'Alcohol', 'Delivery', 'Licensing Act', 'Challenge 25', 'Knives'],
    content: `
<p>Age-restricted retail existed long before the internet, with well-understood rules for the shop counter. Online sales and rapid delivery have stretched those rules. The customer is not in front of a trained member of staff when they order, and the person who receives the goods may not be the person who paid. A robust approach for online sellers checks age at two points &mdash; at the order and on the doorstep &mdash; and makes the two checks work together.</p>

<h2>The legal framework in the UK</h2>
<h3>Alcohol</h3>
<p>Under the Licensing Act 2003 it is an offence to sell alcohol to a person under 18, and a separate offence knowingly to deliver alcohol to a child. A seller charged with selling to a child has a defence if they believed the person was 18 or over and had taken all reasonable steps to establish their age &mdash; which means asking for evidence of age that would have convinced a reasonable person &mdash; or if nobody could reasonably have suspected from the person's appearance that they were under 18.</p>
<p>The mandatory licensing conditions in England and Wales require premises licence holders to have an age verification policy under which anyone who appears to be under 18 must produce identification bearing their photograph, date of birth and a holographic mark or ultraviolet feature. Many retailers go further and operate Challenge 21 or Challenge 25. In Scotland, a Challenge 25 policy is a legal requirement for licensed premises. Online sellers dispatching from licensed premises should expect licensing authorities and Trading Standards to look for an equivalent approach for remote sales.</p>
<p>The Licensing Act is available on <a href="https://www.legislation.gov.uk/ukpga/2003/17/contents" rel="noopener noreferrer">legislation.gov.uk</a>.</p>
<h3>Knives and bladed articles</h3>
<p>The Offensive Weapons Act 2019 tightened the rules for remote sales of knives and other bladed articles. Sellers must take steps to ensure that such items are delivered into the hands of a person aged 18 or over, rather than left on a doorstep, and delivery companies have corresponding obligations. In practice, that requires an age check on delivery.</p>
<h3>Tobacco, vapes and other products</h3>
<p>The sale of tobacco and nicotine vapes to under-18s is prohibited, and the Tobacco and Vapes Bill before Parliament in 2025 would go further, including by creating a generation that can never legally be sold tobacco. Other restricted products include solvents, lighter refills, fireworks, lottery tickets, certain films and games, and corrosive substances. Rules vary by product; build a product-level classification rather than a single "restricted" flag.</p>

<h2>Check 1: at the order</h2>
<p>The first check confirms that the customer placing the order is an adult. Its purpose is to stop most underage orders before any goods move, and to establish a record that reasonable steps were taken.</p>
<p>Suitable methods include:</p>
<ul>
  <li><strong>Data-based checks</strong> against credit reference or electoral roll data using the name, address and date of birth supplied at checkout, which are nearly invisible to the customer;</li>
  <li><strong>Facial age estimation</strong>, with an appropriate challenge age, where data checks fail;</li>
  <li><strong>Document verification</strong> as a fallback;</li>
  <li><strong>Reusable credentials</strong>, such as a certified digital identity, where available.</li>
</ul>
<p>Place the check at checkout, once the customer has committed to buying. For repeat customers, bind the result to the account so that returning adults are not asked every time, but re-check if the delivery address, payment method or device changes in a way that suggests a different person.</p>

<h2>Check 2: at the door</h2>
<p>The order check establishes that an adult placed the order. It does not establish that the person receiving the goods is an adult. For alcohol and knives especially, the handover is where enforcement happens, and Trading Standards test purchases frequently target delivery.</p>
<p>A robust doorstep process includes:</p>
<ul>
  <li><strong>A Challenge 25 policy for drivers and couriers</strong>: anyone who appears under 25 must show acceptable photo ID, with the PASS hologram recognised alongside passports and driving licences.</li>
  <li><strong>A delivery app that enforces the step</strong>: the courier cannot mark the order as delivered without recording that the check was done, and the outcome.</li>
  <li><strong>Assisted checks</strong>: some operators give couriers a facial age estimation step in the delivery app, which gives a consistent, recorded result and reduces awkward judgements.</li>
  <li><strong>A refusal process</strong>: clear instructions on what to do when ID is not produced, including returning the goods rather than leaving them with a neighbour or in a safe place.</li>
  <li><strong>Training and records</strong>: documented training for delivery staff, including third-party couriers, and records of refusals.</li>
</ul>
<p>For rapid-delivery services, the doorstep check is often the main check. Build it properly rather than treating it as a formality.</p>

<h2>Third-party couriers and marketplaces</h2>
<p>Sellers using national carriers need a service that supports age-verified delivery, and they should confirm contractually how the carrier performs the check and what happens on refusal. Marketplaces need to know which listings are age-restricted, and to pass that information to sellers and carriers. Liability does not disappear when the delivery is outsourced.</p>

<h2>Records and test purchases</h2>
<p>Trading Standards and the police carry out test purchases, including online orders delivered to young volunteers. A seller whose delivery hands alcohol or a knife to a test purchaser faces prosecution, and possibly a licence review. Records are the foundation of a due diligence defence: keep evidence of the order-stage check result (not the underlying documents), the delivery-stage check, the identity of the courier, the time of handover and any refusal. Review failed test purchases in detail, and treat near misses reported by couriers as early warnings.</p>

<h2>The US picture in brief</h2>
<p>In the United States, the minimum legal drinking age is 21, and direct-to-consumer alcohol shipping is governed by a patchwork of state laws. Carriers that handle alcohol shipments generally require an adult signature, with ID checked on delivery. Online sellers typically combine an age check at order with carrier-enforced adult signature.</p>

<h2>Balancing compliance and conversion</h2>
<ul>
  <li>Use near-invisible data checks first and reserve more intrusive methods for customers the data cannot confirm.</li>
  <li>Tell customers at checkout that ID may be requested on delivery, so the doorstep check is not a surprise.</li>
  <li>Remember verified customers, within sensible limits.</li>
  <li>Make refusal handling and returns efficient: a failed delivery is costly, but a sale to a child is far more so.</li>
</ul>

<h2>Checklist</h2>
<ol>
  <li>Classify every product by the age restriction that applies to it.</li>
  <li>Implement an order-stage age check with an evidence trail.</li>
  <li>Implement a doorstep check, enforced in the delivery app, with a Challenge 25 policy.</li>
  <li>Train all delivery staff, including contractors, and keep records.</li>
  <li>Define the refusal and return process.</li>
  <li>Review performance against test purchase results and complaints, and adjust.</li>
</ol>
`,
  },
  {
    id: 41,
    title: 'Industry Guide: Age and Identity Verification for Dating Platforms',
    excerpt:
      'Dating services are adults-only by design, but a date of birth field does not keep minors out, and the Online Safety Act no longer accepts terms and conditions as a barrier. How dating platforms can combine age assurance with optional identity verification to protect users and build trust.',
    ...AUTHORS.natarajan,
    date: '2025-07-13',
    readTime: '5 min read',
    category: 'Industry Guides',
    tags: ['Dating', 'Online Safety Act', 'Identity verification', 'Romance fraud', 'Trust and safety'],
    content: `
<p>Dating platforms have always been for adults, and their terms of service say so. Until recently, enforcement typically meant a date-of-birth field at sign-up and reactive removal when underage users were reported. Regulators no longer regard that as enough, and users increasingly expect more. For dating services, verification is both a compliance requirement and a product feature: people want confidence that the person they are talking to is real, an adult and who they claim to be.</p>

<h2>The UK position</h2>
<p>Dating services that let users message each other or share content are user-to-user services under the Online Safety Act 2023. Two sets of duties are relevant.</p>
<h3>Children's access</h3>
<p>Every user-to-user service had to complete a children's access assessment by April 2025. Ofcom's guidance is clear that a service can only conclude that children cannot access it if it uses highly effective age assurance to prevent them from doing so. A statement in the terms of service that users must be 18 does not suffice. A dating service without highly effective age assurance is therefore likely to be treated as accessible to children, triggering the children's risk assessment and safety duties from 25 July 2025 &mdash; duties that make little sense for a service designed for adults. For most dating platforms, the logical response is to implement highly effective age assurance at sign-up.</p>
<h3>Illegal harms</h3>
<p>The illegal content duties, enforceable since March 2025, require services to assess and mitigate the risk of illegal harms. For dating, the most relevant include fraud &mdash; romance fraud in particular &mdash; grooming, harassment, intimate image abuse and the exploitation of children who have got onto the service. Age assurance helps directly with the last of these and indirectly with others, since verified profiles are harder to create at scale.</p>
<p>In addition, the largest platforms designated as Category 1 services will have a duty to offer adult users the option to verify their identity, and to filter out unverified users if they wish.</p>

<h2>Age assurance and identity verification are different things</h2>
<p>Dating platforms often conflate the two. They solve different problems:</p>
<table>
  <thead>
    <tr><th></th><th>Age assurance</th><th>Identity verification</th></tr>
  </thead>
  <tbody>
    <tr><td>Question answered</td><td>Is this user an adult?</td><td>Is this user a real, specific person, and do their photos match them?</td></tr>
    <tr><td>Typical methods</td><td>Facial age estimation, digital identity, open banking, document check</td><td>Document check with face match; profile photo comparison with a live selfie</td></tr>
    <tr><td>Required?</td><td>Effectively, to keep children out under the UK regime</td><td>Usually optional, offered as a trust feature</td></tr>
    <tr><td>Data involved</td><td>Can be minimal: a yes or no</td><td>More sensitive: identity and biometric matching</td></tr>
  </tbody>
</table>
<p>A sensible design applies age assurance to everyone and offers identity or photo verification as an optional upgrade, displayed as a badge. That keeps the mandatory step light, while giving users who want more confidence a way to get it.</p>

<h2>Designing the sign-up check</h2>
<ul>
  <li><strong>Make it part of onboarding.</strong> Dating users expect a setup process: photos, prompts, preferences. An age check that fits into that flow, with a clear explanation, feels natural.</li>
  <li><strong>Use the selfie twice, carefully.</strong> Many dating apps already ask for a live selfie to verify profile photos. The same capture can support facial age estimation, provided users are told and both processes are covered by your privacy information and DPIA.</li>
  <li><strong>Set an evidence-based challenge age</strong> and offer a quick fallback for younger adults, who make up a significant share of dating users.</li>
  <li><strong>Store the outcome only.</strong> Keep a record that the user passed, not the image.</li>
</ul>

<h2>After sign-up</h2>
<p>Age assurance at sign-up is necessary but not sufficient. Accounts can be sold or handed over, and determined minors will look for gaps. Consider:</p>
<ul>
  <li>re-verification when an account shows signs of takeover or sharing, such as a new device combined with changed photos;</li>
  <li>re-verification when other users report that someone appears to be underage;</li>
  <li>proactive detection of content that suggests a user is a minor, as a trigger for a check rather than a decision in itself;</li>
  <li>clear, fast processes to remove confirmed underage users and to review any contact they had.</li>
</ul>

<h2>Romance fraud and fake profiles</h2>
<p>Verification is one of the strongest tools against romance fraud, which often relies on stolen photos and fabricated identities. Photo verification against a live selfie makes stolen-photo profiles harder to sustain; identity verification raises the cost of creating many profiles. Neither is a complete answer: fraudsters can verify real identities and then behave badly. Combine verification with behavioural detection, warnings about requests for money, and easy reporting.</p>

<h2>Privacy considerations</h2>
<p>Dating data is sensitive: it can reveal sexual orientation, relationship status and intimate communications. Verification data adds to that sensitivity. Keep verification processing separate from profile and messaging data, minimise what you store, and be transparent about it. If you use a third-party provider, make sure it cannot build a picture of which users use which dating services.</p>

<h2>Users who cannot be verified</h2>
<p>Some genuine adults will not pass the primary check: younger adults referred by facial estimation, people whose devices struggle with the camera flow, and people without standard documents. For a dating service, losing these users is costly, and turning them away with a blunt error message damages the brand. Offer at least one alternative method that relies on something different &mdash; for example, a digital identity app or a bank-based check alongside facial estimation &mdash; and a route to human review for users who cannot use any automated option. Keep the alternative routes as robust as the primary one; a fallback that accepts a photo of any document without a liveness check will quickly become the route minors use.</p>

<h2>Measuring whether it works</h2>
<p>Ofcom expects providers to be able to show that their measures are effective, not just that they exist. For a dating platform, useful indicators include the pass and fallback rates at sign-up, the number of reports of suspected underage users and how many are confirmed, the time taken to remove confirmed underage accounts, and the share of romance fraud reports involving verified versus unverified profiles. Review these regularly, look for changes after product or provider updates, and record what you did in response. A short quarterly review, written down, is the kind of evidence that demonstrates a functioning system rather than a one-off project.</p>

<h2>Checklist</h2>
<ol>
  <li>Implement highly effective age assurance at sign-up, integrated into onboarding.</li>
  <li>Offer optional photo and identity verification as visible trust features.</li>
  <li>Define re-verification triggers and underage-user removal procedures.</li>
  <li>Use verification alongside fraud detection and user education.</li>
  <li>Minimise and segregate verification data.</li>
</ol>
`,
  },
  {
    id: 42,
    title:
      'Industry Guide: Age Assurance in Financial Services, from Youth Accounts to Open Banking Age Signals',
    excerpt:
      'Banks, payment firms and lenders already verify identity under anti-money-laundering rules, yet age raises distinct questions: product eligibility, young customers, and the growing role of financial institutions as sources of age signals for other sectors. A guide to where KYC ends and age assurance begins.',
    ...AUTHORS.whitfield,
    date: '2025-07-12',
    readTime: '5 min read',
    category: 'Industry Guides',
    tags: ['Financial services', 'KYC', 'Open banking', 'EUDI wallet', 'Digital identity'],
    content: `
<p>Financial services firms might reasonably think age assurance is a solved problem for them. Regulated firms verify customers' identity under anti-money-laundering rules, and that verification establishes a date of birth. Yet age raises questions that know-your-customer processes do not fully answer, and the sector is becoming one of the most important <em>suppliers</em> of age assurance to the rest of the economy. This guide looks at both sides.</p>

<h2>KYC is not the same as age assurance</h2>
<p>Customer due diligence under the Money Laundering Regulations 2017 in the UK, and equivalent rules across the EU, requires firms to identify customers and verify their identity on a risk-sensitive basis. It is designed to prevent financial crime, not to establish eligibility by age, and it has different characteristics:</p>
<ul>
  <li>It collects and retains identity data for a statutory period, whereas good age assurance retains as little as possible.</li>
  <li>It applies at onboarding and on a risk basis thereafter, whereas age-related eligibility may need to be checked for specific products or transactions.</li>
  <li>It may be completed using electronic data checks that confirm identity details without directly confirming that the person applying is the person described.</li>
</ul>
<p>Where the date of birth has been verified to a good standard during due diligence, it is generally a reliable basis for age-related decisions within the firm. The important point is to know how each customer's date of birth was established before relying on it for a purpose it was not designed for.</p>

<h2>Where age matters inside financial services</h2>
<h3>Products for young customers</h3>
<p>Banks, building societies and e-money firms offer accounts and cards for under-18s, and children's finance apps have grown quickly. Age determines which products are available, which features are enabled, and the role of parents or guardians. Firms need to confirm both the child's age and, where relevant, the adult's authority.</p>
<h3>Credit and lending</h3>
<p>Lending to minors raises legal and conduct issues, since contracts with minors are generally unenforceable against them, and lenders set minimum ages accordingly. The expansion of regulation to buy-now-pay-later products, which the UK government has legislated to bring under Financial Conduct Authority oversight, will bring more point-of-sale credit within a regime where affordability and eligibility checks are expected.</p>
<h3>Gambling-adjacent and high-risk products</h3>
<p>Payment firms processing transactions for gambling, adult content or age-restricted goods may be asked by merchants or card schemes about the age assurance in place on the merchant's side. Card schemes have increasingly set their own rules for high-risk merchant categories.</p>
<h3>Consumer Duty and vulnerability</h3>
<p>The FCA's Consumer Duty requires firms to deliver good outcomes for retail customers. Young adults can be more vulnerable to certain harms, such as high-cost credit or speculative investments. Age is one factor in identifying and supporting customers in vulnerable circumstances, although it should not be used as a crude proxy.</p>

<h2>Financial institutions as age signal providers</h2>
<p>Two of the methods Ofcom lists as capable of highly effective age assurance depend on financial services: open banking and credit card checks. That places banks and card issuers at the centre of age assurance for other sectors.</p>
<ul>
  <li><strong>Open banking.</strong> With the customer's consent, an authorised account information service provider can confirm from the bank that the account holder is an adult, without sharing transactions. The check leverages the bank's due diligence and the customer's familiar authentication.</li>
  <li><strong>Credit cards.</strong> Because issuers verify applicants' ages, a validated credit card is an age signal. Debit and prepaid cards are not, since they can be issued to under-18s.</li>
  <li><strong>Digital identity.</strong> Banks in several European countries already operate widely used digital identity schemes. In the UK, the Data (Use and Access) Act 2025 puts the digital verification services framework on a statutory footing, which may encourage more financial institutions to offer reusable identity and age attributes.</li>
</ul>
<p>For firms supplying age signals, the key obligations are transparency and purpose limitation. Customers must understand that their bank is confirming their age to a third party, and the bank must share only what is needed &mdash; an "over 18" answer rather than a date of birth.</p>

<h2>Re-using KYC data for age decisions</h2>
<p>It is tempting to treat the identity data collected for due diligence as a general-purpose asset. Data protection law says otherwise. Personal data collected to meet anti-money-laundering obligations is collected for that purpose, and re-using it for something unrelated requires a compatible purpose or a separate lawful basis, together with transparency. Using a verified date of birth to decide whether a customer is eligible for an age-restricted product offered by the same firm is usually straightforward, because it is closely connected to providing the service the customer asked for. Using it to answer age queries from third parties, or to segment customers for marketing, is a different matter and needs its own analysis.</p>
<p>The cleanest approach is to keep a separate, minimal age attribute &mdash; "over 18: yes, established on this date by this method" &mdash; for age-related decisions, so that the full identity record held for money laundering purposes is not consulted more often or more widely than necessary. That also makes it easier to delete or restrict identity data at the end of the statutory retention period without losing the ability to make age-related decisions for existing customers.</p>

<h2>The EU Digital Identity Wallet</h2>
<p>Under the revised eIDAS Regulation, private relying parties that are required to use strong user authentication, including banks and payment service providers, will have to accept the European Digital Identity Wallet when a user asks to use it. For financial firms, this creates a new onboarding and authentication channel, and with it the ability to accept verified attributes, including age, directly from a government-backed credential. Firms should include wallet acceptance in their digital identity roadmaps.</p>

<h2>Fraud pressures</h2>
<p>Remote onboarding in financial services is a prime target for synthetic identities, document forgeries and deepfakes. The presentation and injection attack defences that protect age assurance are the same ones that protect onboarding. Firms with mature fraud capabilities have an advantage here, and those supplying age signals to others need to be confident that their own underlying verification is robust.</p>

<h2>Checklist</h2>
<ol>
  <li>Document how each customer's date of birth was established, and whether that is adequate for age-dependent products.</li>
  <li>Apply age-appropriate controls and parental authority checks for youth products.</li>
  <li>Keep age eligibility checks separate from AML retention where possible, and minimise the data used.</li>
  <li>If you supply age signals via open banking or digital identity, share the minimum, explain it clearly and log consent.</li>
  <li>Plan for EU Digital Identity Wallet acceptance and for reusable identity in the UK.</li>
</ol>
`,
  },
];

/** Newest first; articles published on the same day keep their list order. */
function byNewest(a: Article, b: Article): number {
  return a.date < b.date ? 1 : a.date > b.date ? -1 : 0;
}

/** Articles in a category (or all of them), newest first. */
export function articlesByCategory(category: ArticleCategory | 'All'): Article[] {
  const list = category === 'All' ? [...ARTICLES] : ARTICLES.filter((a) => a.category === category);
  return list.sort(byNewest);
}

export function findArticle(id: number): Article | undefined {
  return ARTICLES.find((a) => a.id === id);
}

/** Other articles in the same category, in list order. */
export function relatedArticles(article: Article, limit = 3): Article[] {
  return ARTICLES.filter((a) => a.category === article.category && a.id !== article.id).slice(0, limit);
}
